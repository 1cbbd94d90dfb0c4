import { NotABoxError } from '../box/description.js';

const CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was reset',
  ETIMEDOUT: 'no answer (timed out)',
  UND_ERR_CONNECT_TIMEOUT: 'no answer (timed out)',
  UND_ERR_HEADERS_TIMEOUT: 'no answer (timed out)',
  UND_ERR_SOCKET: 'the connection was dropped',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host is down',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'host name lookup failed',
};

/**
 * The cause of a network failure in plain words: `fetch failed` says nothing, its `cause` (and the
 * socket error's code) does. Falls back to the innermost message.
 */
export function networkCause(err: unknown): string {
  let e: unknown = err;
  let last = err instanceof Error ? err.message : String(err);
  for (let depth = 0; depth < 5 && e; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CODES[code]) return CODES[code];
    const msg = e instanceof Error ? e.message : '';
    for (const [c, words] of Object.entries(CODES)) if (msg.includes(c)) return words;
    if (/timed out|timeout/i.test(msg)) return `no answer (${msg})`;
    if (msg && msg !== 'fetch failed') last = msg;
    e = (e as { cause?: unknown }).cause;
  }
  return last;
}

/** Host and port of a URL (or the text itself). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export const CHECK_ADDRESS = 'check the box address in settings';

/** `cannot reach the box at 192.168.1.40:49152: connection refused — is it on? check the box address in settings` */
export function boxUnreachable(address: string, err: unknown): string {
  if (err instanceof NotABoxError) return `the device at ${address} is not a recording box (${err.message}) — ${CHECK_ADDRESS}`;
  const cause = networkCause(err);
  if (/answered HTTP \d+/.test(cause)) return `the box at ${address} ${cause.replace(/^.*?(answered HTTP \d+).*$/, '$1')} for its description — is this the box? ${CHECK_ADDRESS}`;
  if (/XML|parse|tag|Unexpected|closing|attribute/i.test(cause) && !/refused|reset|timed out|unreachable/.test(cause)) {
    return `the device at ${address} sent a description that is not valid XML (${cause}) — ${CHECK_ADDRESS}`;
  }
  return `cannot reach the box at ${address}: ${cause} — is it on? ${CHECK_ADDRESS}`;
}

/** A failed Browse of a box that was found. */
export function browseFailed(address: string, err: unknown): string {
  return `cannot list the recordings on the box at ${address}: ${networkCause(err)} — is it still on? the next sync tries again`;
}

/** A media request that got no answer. */
export function downloadUnreachable(url: string, err: unknown): string {
  return `cannot download from the box at ${hostOf(url)}: ${networkCause(err)} — is it still on? the next sync tries again`;
}

/** No box among the devices that answered an SSDP search (or none answered). */
export function noBoxFound(skipped: ReadonlyArray<{ location: string; reason: string }>): string {
  if (!skipped.length) {
    return 'no recording box answered the network search (SSDP) — is the box on and on the same network as this computer? or set the box address in settings';
  }
  const why = (reason: string) => {
    if (/^fetch failed|timed out/.test(reason)) return `unreachable: ${networkCause(new Error(reason))}`;
    if (/^not the recording box|^no device element|answered HTTP|no ContentDirectory/.test(reason)) return reason;
    return `broken description: ${reason}`;
  };
  const list = skipped.map((s) => `${hostOf(s.location)} (${why(s.reason)})`).join('; ');
  const n = skipped.length;
  return `no recording box found: ${n} device${n > 1 ? 's' : ''} answered but none is the box: ${list} — is the box on? or set the box address in settings`;
}
