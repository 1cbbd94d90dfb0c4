/** The project's one error type: an HTTP status, a stable code and a message safe to show a user. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    opts: { field?: string; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.field = opts.field;
    this.headers = opts.headers;
    this.extra = opts.extra;
  }
}

/** 400 naming the offending field. */
export function invalid(field: string, message: string): AppError {
  return new AppError(400, 'invalid', `${field}: ${message}`, { field });
}

export function notFound(message = 'Not found'): AppError {
  return new AppError(404, 'not_found', message);
}

export function conflict(code: string, message: string, extra?: Record<string, unknown>): AppError {
  return new AppError(409, code, message, { extra });
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string } & Record<string, unknown>;
}

export function errorBody(err: AppError): ErrorBody {
  const body: ErrorBody = { error: { code: err.code, message: err.message, ...err.extra } };
  if (err.field) body.error.field = err.field;
  return body;
}
