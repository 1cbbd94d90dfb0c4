import { z } from 'zod';
import { OutboundRefused } from '../../core/outbound.js';
import { fetchBounded, ResponseTooLargeError } from '../box/bounded-fetch.js';
import { displayText, type FetchLike } from '../box/description.js';

/** Largest sections answer read into memory (a real one with a dozen libraries is a few KiB). */
export const MAX_SECTIONS_BYTES = 1024 * 1024;
/** Most sections listed (a home server has a handful). */
export const MAX_SECTIONS = 200;
/** How long one request to the media server may take, body included. */
export const MEDIA_SERVER_TIMEOUT_MS = 10_000;

export interface MediaServerSection {
  id: string;
  title: string;
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

const sectionsSchema = z.object({
  MediaContainer: z.object({
    Directory: z
      .array(z.object({ key: z.union([z.string(), z.number()]), title: z.unknown().optional(), type: z.unknown().optional() }).passthrough())
      .optional(),
  }).passthrough(),
});

/** The token travels in a header, never in the URL: URLs end up in error texts and logs. */
const headers = (token: string) => ({ Accept: 'application/json', ...(token ? { 'X-Plex-Token': token } : {}) });

const endpoint = (baseUrl: string, path: string) => new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();

async function call(fetchFn: FetchLike, baseUrl: string, path: string, token: string, what: string, signal?: AbortSignal) {
  let res;
  try {
    res = await fetchBounded(fetchFn, endpoint(baseUrl, path), { headers: headers(token) }, { maxBytes: MAX_SECTIONS_BYTES, timeoutMs: MEDIA_SERVER_TIMEOUT_MS, signal, what });
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

/** `GET /library/sections`: the server's libraries (ids as strings, display text cleaned and capped). */
export async function listSections(fetchFn: FetchLike, server: { url: string; token: string }, signal?: AbortSignal): Promise<MediaServerSection[]> {
  const res = await call(fetchFn, server.url, 'library/sections', server.token, `listing the sections of ${new URL(server.url).host}`, signal);
  let json: unknown;
  try {
    json = JSON.parse(res.text);
  } catch {
    throw new MediaServerError('the media server sent sections that are not JSON');
  }
  const parsed = sectionsSchema.safeParse(json);
  if (!parsed.success) throw new MediaServerError('the media server sent sections in an unknown shape');
  return (parsed.data.MediaContainer.Directory ?? []).slice(0, MAX_SECTIONS).map((d) => ({
    id: displayText(String(d.key), 32),
    title: displayText(typeof d.title === 'string' ? d.title : '', 200),
    type: displayText(typeof d.type === 'string' ? d.type : '', 32),
  }));
}

/** `GET /library/sections/<id>/refresh`: asks the server to scan one library (2xx = accepted). */
export async function refreshSection(fetchFn: FetchLike, server: { url: string; token: string; sectionId: string }, signal?: AbortSignal): Promise<void> {
  if (!/^\d+$/.test(server.sectionId)) throw new MediaServerError('no library section is set (media_server_section_id)');
  await call(fetchFn, server.url, `library/sections/${server.sectionId}/refresh`, server.token, `refreshing section ${server.sectionId} on ${new URL(server.url).host}`, signal);
}
