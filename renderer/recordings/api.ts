/**
 * The browser's client for the recording sync API (same origin). State-changing requests carry the
 * CSRF token from `GET /api/csrf-token` in `x-csrf-token` (the cookie goes along by itself); on a
 * 403 the cached token is dropped, a new one fetched and the request retried once. A 401 `locked`
 * (the owner's passcode, see lock.ts) marks the page locked. Errors are the
 * energy pages' `ApiError` (named `RecApiError` here), read from the same error body.
 */
import { ApiError as RecApiError, readJsonResponse } from '../api.js';
import { lockState } from './lock.js';

export { messageOf } from '../api.js';
export { RecApiError };

let token: Promise<string> | null = null;

async function fetchToken(): Promise<string> {
  const res = await fetch('/api/csrf-token', { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok) throw new RecApiError(res.status, `http_${res.status}`, `Cannot get a CSRF token (${res.status})`);
  return ((await res.json()) as { token: string }).token;
}

function csrfToken(): Promise<string> {
  token ??= fetchToken().catch((err: unknown) => {
    token = null;
    throw err;
  });
  return token;
}

async function request<T>(method: string, url: string, body?: unknown, retried = false): Promise<T> {
  const unsafe = method !== 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  let payload: string | undefined;
  if (unsafe) {
    try {
      headers['x-csrf-token'] = await csrfToken();
    } catch (err) {
      throw err instanceof RecApiError ? err : new RecApiError(0, 'network', 'Cannot reach the recording sync. Is it running?');
    }
    // Fastify wants a JSON body whenever the content type says JSON; routes without one accept `{}`.
    if (method !== 'DELETE' || body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body ?? {});
    }
  }
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new RecApiError(0, 'network', 'Cannot reach the recording sync. Is it running?');
  }
  if (res.status === 403 && unsafe && !retried) {
    token = null;
    return request<T>(method, url, body, true);
  }
  try {
    return await readJsonResponse<T>(res, method, url);
  } catch (err) {
    // The owner's passcode is set and this browser has no session: show the unlock form.
    if (err instanceof RecApiError && err.status === 401 && err.code === 'locked') lockState.locked();
    throw err;
  }
}

export const rec = {
  get: <T>(url: string) => request<T>('GET', url),
  post: <T>(url: string, body?: unknown) => request<T>('POST', url, body),
  patch: <T>(url: string, body: unknown) => request<T>('PATCH', url, body),
  del: <T>(url: string) => request<T>('DELETE', url),
};
