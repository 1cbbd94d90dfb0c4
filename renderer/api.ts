/**
 * The browser's client for the energy bridge API. Same origin; the settings session token lives
 * in sessionStorage and goes out as a Bearer header on every call that changes something.
 */
import { noteResponse } from './kit/offline.js';

const TOKEN_KEY = 'energy.sessionToken';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | null = null,
    readonly body: Record<string, unknown> = {},
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

export const session = {
  get token(): string | null {
    try {
      return sessionStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  set(token: string | null): void {
    try {
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      /* storage disabled: the session lasts for this page only */
    }
  },
};

async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = session.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network', 'Cannot reach the energy bridge. Is it running?');
  }
  try {
    return await readJsonResponse<T>(res, method, url);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && err.code === 'locked') session.set(null);
    throw err;
  }
}

/** What a page says when a change needs the owner's passcode and this browser has no session. */
export const LOCKED_MESSAGE = 'Locked: unlock with the passcode to make changes.';

/**
 * The JSON body of a response, or an `ApiError` from the services' error body
 * (`{ error: { code, message, field } }`); both services' pages read answers this way.
 */
export async function readJsonResponse<T>(res: Response, method: string, url: string): Promise<T> {
  noteResponse(res);
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data as { error?: Record<string, unknown> } | null)?.error ?? {};
    const retry = Number(res.headers.get('retry-after'));
    const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
    const fallback = res.status === 429 && retryAfter ? `Too many requests; try again in ${retryAfter} s` : `${method} ${url} failed (${res.status})`;
    const code = typeof err.code === 'string' ? err.code : `http_${res.status}`;
    // The service's `locked` message is written for API clients (endpoints, headers); a page says what to do.
    const message = code === 'locked' ? LOCKED_MESSAGE : typeof err.message === 'string' ? err.message : fallback;
    throw new ApiError(
      res.status,
      code,
      message,
      typeof err.field === 'string' ? err.field : null,
      err,
      retryAfter,
    );
  }
  return data as T;
}

export const api = {
  get: <T>(url: string) => request<T>('GET', url),
  post: <T>(url: string, body: unknown = {}) => request<T>('POST', url, body),
  put: <T>(url: string, body: unknown) => request<T>('PUT', url, body),
  del: <T>(url: string) => request<T>('DELETE', url),
};

/** A message a person can act on, for any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
