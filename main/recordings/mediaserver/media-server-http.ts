import { OutboundRefused } from '../../core/outbound.js';
import { fetchBounded, ResponseTooLargeError, type BoundedResponse } from '../box/bounded-fetch.js';
import type { FetchLike } from '../box/description.js';

/** Largest answer read into memory (a real library list with a dozen libraries is a few KiB). */
export const MAX_SECTIONS_BYTES = 1024 * 1024;
/** Most libraries listed (a home server has a handful). */
export const MAX_SECTIONS = 200;
/** How long one request to the media server may take, body included. */
export const MEDIA_SERVER_TIMEOUT_MS = 10_000;

/** One library of a media server: a Plex section or a Jellyfin/Emby virtual folder. */
export interface MediaServerSection {
  id: string;
  title: string;
  /** Plex: `show`, `movie`, …; Jellyfin and Emby: the CollectionType (`tvshows`, `movies`, …). */
  type: string;
}

/**
 * A media-server failure safe to show and log: it never carries the token. `kind` says what went
 * wrong: no HTTP answer at all (closed port, silent host, not HTTP), the token refused, an HTTP
 * answer that is not a media server's, or the outbound gate refusing the address.
 */
export class MediaServerError extends Error {
  constructor(
    message: string,
    readonly unauthorized = false,
    readonly kind: 'no_answer' | 'unauthorized' | 'not_media_server' | 'refused' = unauthorized ? 'unauthorized' : 'not_media_server',
  ) {
    super(message);
  }
}

/** `path` under the server's base URL (which may carry a base path such as `/jellyfin`). */
export const endpoint = (baseUrl: string, path: string) => new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();

/**
 * One request to the media server, answer bounded in size and time (its bytes are hostile input).
 * The secret travels in a header of `init`, never in the URL: URLs end up in error texts and logs.
 */
export async function mediaServerRequest(fetchFn: FetchLike, url: string, init: RequestInit, what: string, signal?: AbortSignal): Promise<BoundedResponse> {
  let res;
  try {
    res = await fetchBounded(fetchFn, url, init, { maxBytes: MAX_SECTIONS_BYTES, timeoutMs: MEDIA_SERVER_TIMEOUT_MS, signal, what });
  } catch (err) {
    if (err instanceof OutboundRefused) throw new MediaServerError(`${what}: ${err.message}`, false, 'refused');
    if (err instanceof ResponseTooLargeError) throw new MediaServerError(`${what}: ${err.message}`);
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    throw new MediaServerError(`${what}: ${(err as Error).message}${cause ? ` (${cause})` : ''}`, false, 'no_answer');
  }
  if (res.status === 401 || res.status === 403) throw new MediaServerError(`${what}: the media server refused the token (HTTP ${res.status}); detect it again or paste a valid one`, true);
  if (!res.ok) throw new MediaServerError(`${what}: the media server answered HTTP ${res.status}`);
  return res;
}

/** The answer's JSON, or a MediaServerError saying it was not JSON. */
export function jsonOf(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new MediaServerError(`the media server sent ${what} that are not JSON`);
  }
}
