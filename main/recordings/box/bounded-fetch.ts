import { abortScope } from '../abort-scope.js';

/** A fetch as the box clients take it (the outbound gate's LAN-device fetcher in the service). */
export type FetchLike = typeof fetch;

/** Largest device description read into memory (a real one is a few KiB). */
export const MAX_DESCRIPTION_BYTES = 256 * 1024;
/** Largest SOAP Browse answer read into memory (a real page of 100 items is about 150 KiB). */
export const MAX_BROWSE_BYTES = 8 * 1024 * 1024;

export class ResponseTooLargeError extends Error {}

export interface BoundedResponse {
  status: number;
  ok: boolean;
  text: string;
  /** The response headers (the cloud's session cookie). */
  headers: Headers;
}

/**
 * One request to a device whose whole answer is read into memory: the body is streamed and the
 * request aborted as soon as it passes `maxBytes` (an announced larger `Content-Length` is refused
 * before reading), and the whole exchange, body included, must finish within `timeoutMs`.
 */
export async function fetchBounded(
  fetchFn: FetchLike,
  url: string,
  init: RequestInit,
  limits: { maxBytes: number; timeoutMs: number; signal?: AbortSignal; what: string },
): Promise<BoundedResponse> {
  const scope = abortScope(limits.signal, limits.timeoutMs);
  try {
    const res = await fetchFn(url, { ...init, signal: scope.signal });
    const tooLarge = () => new ResponseTooLargeError(`${limits.what} is larger than ${limits.maxBytes} bytes: refused`);
    const announced = res.headers.get('content-length');
    if (announced !== null && /^\d+$/.test(announced) && Number(announced) > limits.maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > limits.maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    }
    const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks, total));
    return { status: res.status, ok: res.ok, text, headers: res.headers };
  } catch (err) {
    if (scope.signal.aborted && !(err instanceof ResponseTooLargeError)) {
      const reason: unknown = scope.signal.reason;
      throw new Error(`${limits.what}: ${reason instanceof Error ? reason.message : 'aborted'}`);
    }
    throw err;
  } finally {
    scope.dispose();
  }
}
