import { z } from 'zod';
import { displayText, type FetchLike } from '../box/description.js';
import { endpoint, jsonOf, MAX_SECTIONS, MediaServerError, mediaServerRequest, type MediaServerSection } from './media-server-http.js';

/**
 * Jellyfin and Emby (Jellyfin is a fork of Emby and kept its API for what the service uses):
 * - the API key (Dashboard → API Keys) in a header: Jellyfin's `Authorization: MediaBrowser Token="<key>"`
 *   (its SDK's AUTHORIZATION_HEADER, jellyfin/jellyfin-sdk-typescript docs/modules/index.md), Emby's
 *   `X-Emby-Token: <key>` (which Jellyfin also still reads); never in the query string;
 * - `GET /System/Info`: the server's name, version and id (the key's test: 401 when it is refused);
 * - `GET /Library/VirtualFolders`: the libraries, each `{ Name, CollectionType, ItemId, Locations }`
 *   (`tvshows` for TV; newer Emby may wrap the list as `{ Items: [...] }`);
 * - `POST /Library/Refresh`: scan every library;
 * - `POST /Library/Media/Updated` with `{ Updates: [{ Path, UpdateType: 'Created' }] }`: look only at
 *   these paths (Jellyfin.Api MediaUpdateInfoDto / MediaUpdateInfoPathDto; Emby's `/Library/Media/Updated`).
 * Emby serves the same under `/emby/...`.
 */
export type EmbyFamilyKind = 'jellyfin' | 'emby';

export interface EmbyFamilyServer {
  kind: EmbyFamilyKind;
  url: string;
  /** The API key ('' when none is given: the server then answers 401). */
  token: string;
}

/** A Jellyfin or Emby library: its id, name, CollectionType and its folders as the server sees them. */
export interface EmbyFamilyLibrary extends MediaServerSection {
  locations: string[];
}

export interface EmbyFamilyInfo {
  name: string;
  version: string;
  id: string;
}

export const KIND_NAMES: Record<EmbyFamilyKind, string> = { jellyfin: 'Jellyfin', emby: 'Emby' };

const headers = (server: EmbyFamilyServer, json = false): Record<string, string> => ({
  Accept: 'application/json',
  ...(json ? { 'Content-Type': 'application/json' } : {}),
  ...(server.token ? (server.kind === 'jellyfin' ? { Authorization: `MediaBrowser Token="${server.token}"` } : { 'X-Emby-Token': server.token }) : {}),
});

const apiPath = (server: EmbyFamilyServer, p: string) => (server.kind === 'emby' ? `emby/${p}` : p);

function call(fetchFn: FetchLike, server: EmbyFamilyServer, method: 'GET' | 'POST', p: string, what: string, signal?: AbortSignal, body?: unknown) {
  if (server.token && !/^[A-Za-z0-9_-]{1,512}$/.test(server.token)) throw new MediaServerError('the API key has characters an API key does not have (letters, digits, - and _ only): paste it again', true);
  const init: RequestInit = body === undefined ? { method, headers: headers(server) } : { method, headers: headers(server, true), body: JSON.stringify(body) };
  return mediaServerRequest(fetchFn, endpoint(server.url, apiPath(server, p)), init, `${what} (${KIND_NAMES[server.kind]} at ${new URL(server.url).host})`, signal);
}

const text = (v: unknown, max: number) => displayText(typeof v === 'string' ? v : '', max);

const infoSchema = z.object({ ServerName: z.unknown().optional(), Version: z.unknown().optional(), Id: z.unknown().optional() }).passthrough();

/** `GET /System/Info`: answers only with a valid key; the test of a key. */
export async function systemInfo(fetchFn: FetchLike, server: EmbyFamilyServer, signal?: AbortSignal): Promise<EmbyFamilyInfo> {
  const res = await call(fetchFn, server, 'GET', 'System/Info', 'asking for its system information', signal);
  const parsed = infoSchema.safeParse(jsonOf(res.text, 'system information'));
  if (!parsed.success || typeof parsed.data.Version !== 'string') throw new MediaServerError(`the server at ${new URL(server.url).host} answered, but not as ${KIND_NAMES[server.kind]}`);
  return { name: text(parsed.data.ServerName, 120) || KIND_NAMES[server.kind], version: text(parsed.data.Version, 60), id: text(parsed.data.Id, 64) };
}

const folderSchema = z.object({ Name: z.unknown().optional(), CollectionType: z.unknown().optional(), ItemId: z.union([z.string(), z.number()]), Locations: z.unknown().optional() }).passthrough();
const foldersSchema = z.union([z.array(z.unknown()), z.object({ Items: z.array(z.unknown()) }).passthrough()]);

/** `GET /Library/VirtualFolders`: the libraries (entries in another shape are skipped; text cleaned and capped). */
export async function listLibraries(fetchFn: FetchLike, server: EmbyFamilyServer, signal?: AbortSignal): Promise<EmbyFamilyLibrary[]> {
  const res = await call(fetchFn, server, 'GET', 'Library/VirtualFolders', 'listing its libraries', signal);
  const parsed = foldersSchema.safeParse(jsonOf(res.text, 'libraries'));
  if (!parsed.success) throw new MediaServerError('the media server sent libraries in an unknown shape');
  const entries = Array.isArray(parsed.data) ? parsed.data : parsed.data.Items;
  const out: EmbyFamilyLibrary[] = [];
  for (const entry of entries.slice(0, MAX_SECTIONS)) {
    const f = folderSchema.safeParse(entry);
    if (!f.success) continue;
    const id = String(f.data.ItemId);
    if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) continue;
    const locations = Array.isArray(f.data.Locations) ? f.data.Locations.filter((l): l is string => typeof l === 'string' && l.length > 0 && l.length <= 4096).slice(0, 32) : [];
    out.push({ id, title: text(f.data.Name, 200), type: text(f.data.CollectionType, 32), locations });
  }
  return out;
}

/** `POST /Library/Refresh`: scan all libraries (2xx = accepted). */
export async function refreshAll(fetchFn: FetchLike, server: EmbyFamilyServer, signal?: AbortSignal): Promise<void> {
  await call(fetchFn, server, 'POST', 'Library/Refresh', 'refreshing its libraries', signal);
}

/** `POST /Library/Media/Updated`: look only at these folders (paths as the server sees them). */
export async function refreshFolders(fetchFn: FetchLike, server: EmbyFamilyServer, folders: readonly string[], signal?: AbortSignal): Promise<void> {
  const Updates = folders.map((Path) => ({ Path, UpdateType: 'Created' }));
  await call(fetchFn, server, 'POST', 'Library/Media/Updated', `telling it about ${folders.length} new folder${folders.length === 1 ? '' : 's'}`, signal, { Updates });
}
