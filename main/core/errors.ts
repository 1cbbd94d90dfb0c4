/** The project's one error type: an HTTP status, a stable code and a message safe to show a user. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;
  /** The thrower has logged this refusal itself (rate-limited): the HTTP error handler writes nothing. */
  readonly quiet: boolean;

  constructor(
    status: number,
    code: string,
    message: string,
    opts: { field?: string; headers?: Record<string, string>; extra?: Record<string, unknown>; quiet?: boolean } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.field = opts.field;
    this.headers = opts.headers;
    this.extra = opts.extra;
    this.quiet = opts.quiet ?? false;
  }
}

/**
 * 400 naming the offending field: the message names it in words when a `label` is given ("Folder
 * name: must not be empty"); `field` (the path) stays machine-readable for the pages.
 */
export function invalid(field: string, message: string, label?: string): AppError {
  return new AppError(400, 'invalid', `${label ?? field}: ${message}`, { field });
}

export function notFound(message = 'Not found'): AppError {
  return new AppError(404, 'not_found', message);
}

export function conflict(code: string, message: string, extra?: Record<string, unknown>): AppError {
  return new AppError(409, code, message, { extra });
}

/**
 * Whether `err` says the disk is full: ENOSPC / EDQUOT from the file system, SQLITE_FULL or
 * "database or disk is full" from SQLite.
 */
export function isStorageFull(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') return true;
  return typeof e.message === 'string' && /database or disk is full|no space left on device|ENOSPC/i.test(e.message);
}

/** 507 `storage_full`: what a write answers when the data folder's disk is full (never raw ENOSPC text). */
export function storageFull(): AppError {
  return new AppError(507, 'storage_full', 'The disk holding the data folder is full, so nothing could be saved. Free some space there; the service carries on by itself once there is room.');
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string } & Record<string, unknown>;
}

export function errorBody(err: AppError): ErrorBody {
  const body: ErrorBody = { error: { code: err.code, message: err.message, ...err.extra } };
  if (err.field) body.error.field = err.field;
  return body;
}
