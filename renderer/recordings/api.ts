/**
 * The browser's client for the recording sync API (same origin). State-changing requests carry the
 * CSRF token from `GET /api/csrf-token` in `x-csrf-token` (the cookie goes along by itself); on a
 * 403 the cached token is dropped, a new one fetched and the request retried once.
 */
export class RecApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | null = null,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

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
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data as { error?: Record<string, unknown> } | null)?.error ?? {};
    const retry = res.headers.get('retry-after');
    const fallback = res.status === 429 && retry ? `Too many requests; try again in ${retry} s` : `${method} ${url} failed (${res.status})`;
    throw new RecApiError(
      res.status,
      typeof err.code === 'string' ? err.code : `http_${res.status}`,
      typeof err.message === 'string' ? err.message : fallback,
      typeof err.field === 'string' ? err.field : null,
      err,
    );
  }
  return data as T;
}

export const rec = {
  get: <T>(url: string) => request<T>('GET', url),
  post: <T>(url: string, body?: unknown) => request<T>('POST', url, body),
  patch: <T>(url: string, body: unknown) => request<T>('PATCH', url, body),
  del: <T>(url: string) => request<T>('DELETE', url),
};

/** A message a person can act on, for any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
