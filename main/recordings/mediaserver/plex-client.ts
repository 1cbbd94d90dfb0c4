import { z } from 'zod';
import { displayText, type FetchLike } from '../box/description.js';
import { endpoint, jsonOf, MAX_SECTIONS, MediaServerError, mediaServerRequest, type MediaServerSection } from './media-server-http.js';

export { MAX_SECTIONS_BYTES, MediaServerError, type MediaServerSection } from './media-server-http.js';

const sectionsSchema = z.object({
  MediaContainer: z.object({
    Directory: z
      .array(z.object({ key: z.union([z.string(), z.number()]), title: z.unknown().optional(), type: z.unknown().optional(), Location: z.unknown().optional() }).passthrough())
      .optional(),
  }).passthrough(),
});

/** The token travels in a header, never in the URL: URLs end up in error texts and logs. */
const headers = (token: string) => ({ Accept: 'application/json', ...(token ? { 'X-Plex-Token': token } : {}) });

const call = (fetchFn: FetchLike, baseUrl: string, path: string, token: string, what: string, signal?: AbortSignal) =>
  mediaServerRequest(fetchFn, endpoint(baseUrl, path), { headers: headers(token) }, what, signal);

/** A Plex section with its folders as the server names them (`Location[].path`; python-plexapi's `LibrarySection.locations`). */
export interface PlexSection extends MediaServerSection {
  locations: string[];
}

/** The section's folder paths: entries in another shape are skipped, at most 32. */
function locationsOf(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .map((l) => (l && typeof l === 'object' ? (l as { path?: unknown }).path : undefined))
    .filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length <= 4096)
    .slice(0, 32);
}

/** `GET /library/sections`: the server's libraries (ids as strings, display text cleaned and capped). */
export async function listSections(fetchFn: FetchLike, server: { url: string; token: string }, signal?: AbortSignal): Promise<PlexSection[]> {
  const res = await call(fetchFn, server.url, 'library/sections', server.token, `listing the sections of ${new URL(server.url).host}`, signal);
  const json = jsonOf(res.text, 'sections');
  const parsed = sectionsSchema.safeParse(json);
  if (!parsed.success) throw new MediaServerError('the media server sent sections in an unknown shape');
  return (parsed.data.MediaContainer.Directory ?? []).slice(0, MAX_SECTIONS).map((d) => ({
    id: displayText(String(d.key), 32),
    title: displayText(typeof d.title === 'string' ? d.title : '', 200),
    type: displayText(typeof d.type === 'string' ? d.type : '', 32),
    locations: locationsOf(d.Location),
  }));
}

/**
 * `GET /library/sections/<id>/refresh`: asks the server to scan one library (2xx = accepted); with
 * `folder`, `?path=<folder>` scans only that folder of it (python-plexapi's `LibrarySection.update(path=...)`).
 */
export async function refreshSection(fetchFn: FetchLike, server: { url: string; token: string; sectionId: string }, signal?: AbortSignal, folder?: string): Promise<void> {
  if (!/^\d+$/.test(server.sectionId)) throw new MediaServerError('no library section is set (media_server_section_id)');
  const query = folder === undefined ? '' : `?path=${encodeURIComponent(folder)}`;
  const what = folder === undefined ? `refreshing section ${server.sectionId}` : `refreshing a folder of section ${server.sectionId}`;
  await call(fetchFn, server.url, `library/sections/${server.sectionId}/refresh${query}`, server.token, `${what} on ${new URL(server.url).host}`, signal);
}
