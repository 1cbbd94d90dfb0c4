import { noHttpAnswer, OutboundRefused } from '../../core/outbound.js';
import type { FetchLike } from '../feature.js';

/** A price request gives up after this long; answers are read up to `maxBytes` (every byte is hostile). */
export const PRICE_TIMEOUT_MS = 15_000;
export const PRICE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * A price source failure safe to show on the pages; `status` is the HTTP status when one came,
 * `retryAfterMs` a 429's Retry-After (bounded), `detail` (the socket error) for the log only.
 */
export class PriceSourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'PriceSourceError';
  }
}

const STATUS_WORDS: Record<number, string> = {
  401: 'refused the API token (HTTP 401): check it in the settings',
  403: 'refused the API token (HTTP 403): check it in the settings',
  404: 'does not know that site or tariff (HTTP 404)',
  429: 'asked us to slow down (HTTP 429); prices are fetched again later',
};

/** Retry-After in seconds (a date is not honoured), at most an hour. */
function retryAfter(res: Response): number | undefined {
  const v = res.headers.get('retry-after');
  if (!v || !/^\d{1,6}$/.test(v.trim())) return undefined;
  return Math.min(3600, Number(v)) * 1000;
}

/**
 * GETs a JSON document for a price source, bounded in time and size. `who` names the service in
 * messages ("Amber"). The caller validates the shape.
 */
export async function getPriceJson(fetchFn: FetchLike, url: string, who: string, opts: { headers?: Record<string, string>; signal?: AbortSignal; timeoutMs?: number; maxBytes?: number } = {}): Promise<unknown> {
  const timeoutMs = opts.timeoutMs ?? PRICE_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? PRICE_MAX_BYTES;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  let res: Response;
  try {
    res = await fetchFn(url, { headers: { accept: 'application/json', ...opts.headers }, redirect: 'error', signal });
  } catch (err) {
    if (err instanceof OutboundRefused) throw new PriceSourceError(`${who}: ${err.message}`);
    const e = err as Error & { cause?: { code?: string; message?: string } };
    throw new PriceSourceError(`${who}: ${noHttpAnswer(url)}`, undefined, undefined, e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message));
  }
  if (!res.ok) {
    void res.body?.cancel().catch(() => {});
    throw new PriceSourceError(`${who} ${STATUS_WORDS[res.status] ?? `answered HTTP ${res.status}`}`, res.status, res.status === 429 ? retryAfter(res) : undefined);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  try {
    if (reader) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          void reader.cancel().catch(() => {});
          throw new PriceSourceError(`${who}'s answer is too large (over ${Math.round(maxBytes / 1024)} KiB)`);
        }
        chunks.push(value);
      }
    }
  } catch (err) {
    if (err instanceof PriceSourceError) throw err;
    throw new PriceSourceError(`${who}: the answer was cut off`, undefined, undefined, (err as Error).message);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new PriceSourceError(`${who}'s answer is not JSON`);
  }
}
