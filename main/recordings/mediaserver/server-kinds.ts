import type { FetchLike } from '../box/description.js';
import { searchEmbyServers, type EmbyDiscoveryTarget, type FoundEmbyServer } from './emby-discovery.js';
import { searchMediaServers, type FoundMediaServer, type GdmTarget } from './gdm.js';
import { KIND_NAMES, listLibraries, refreshAll, refreshFolders, systemInfo } from './jellyfin-client.js';
import type { MediaServerSection } from './media-server-http.js';
import { foldersToUpdate } from './new-folders.js';
import { listSections, refreshSection } from './plex-client.js';
import type { MediaServerKind } from './settings.js';

/** A saved or named server and the secret for it. */
export interface ServerAccess {
  url: string;
  token: string;
}

/** What one kind of media server does for the service; every failure is a MediaServerError. */
export interface ServerKindDriver {
  /** Plex, Jellyfin or Emby (in messages). */
  label: string;
  /** The key's name in messages: Plex's token, Jellyfin's and Emby's API key. */
  secretName: string;
  /** Searches the LAN for servers of this kind. */
  search(signal?: AbortSignal): Promise<Array<FoundMediaServer | FoundEmbyServer>>;
  /** The test of an address and its secret: one short line naming what answered. */
  test(server: ServerAccess, signal?: AbortSignal): Promise<string>;
  /** The server's libraries. */
  libraries(server: ServerAccess, signal?: AbortSignal): Promise<MediaServerSection[]>;
  /** Whether a library holds TV shows (the one to pick when it is the only one). */
  isTv(section: MediaServerSection): boolean;
  /**
   * Asks the server to look at the new files: only their folders where the server supports it and
   * can see them, else the library (Plex: the section) or all libraries. Says what it asked.
   */
  refresh(server: ServerAccess & { sectionId: string }, files: readonly string[], signal?: AbortSignal): Promise<string>;
}

export interface DriverDeps {
  fetch: FetchLike;
  /** Where Plex's GDM searches go. */
  gdm: GdmTarget;
  /** Where Jellyfin's and Emby's discovery datagrams go. */
  embyDiscovery: EmbyDiscoveryTarget;
}

const librariesLine = (n: number) => `${n} librar${n === 1 ? 'y' : 'ies'}`;

function plexDriver(deps: DriverDeps): ServerKindDriver {
  return {
    label: 'Plex',
    secretName: 'token',
    search: (signal) => searchMediaServers(deps.gdm, signal),
    async test(server, signal) {
      const sections = await listSections(deps.fetch, server, signal);
      return `Plex at ${new URL(server.url).host} accepts the token (${librariesLine(sections.length)})`;
    },
    async libraries(server, signal) {
      return (await listSections(deps.fetch, server, signal)).map(({ id, title, type }) => ({ id, title, type }));
    },
    isTv: (s) => s.type === 'show',
    async refresh(server, files, signal) {
      // Only the new items' folders (one request each) when the section shows them; else the section.
      const section = server.sectionId && files.length ? (await listSections(deps.fetch, server, signal)).find((x) => x.id === server.sectionId) : undefined;
      const folders = foldersToUpdate(section, files);
      if (folders) {
        for (const folder of folders) await refreshSection(deps.fetch, server, signal, folder);
        return `${folders.length} new folder${folders.length === 1 ? '' : 's'} in section ${server.sectionId}`;
      }
      await refreshSection(deps.fetch, server, signal);
      return `section ${server.sectionId}`;
    },
  };
}

function embyFamilyDriver(kind: 'jellyfin' | 'emby', deps: DriverDeps): ServerKindDriver {
  const at = (server: ServerAccess) => ({ kind, ...server });
  return {
    label: KIND_NAMES[kind],
    secretName: 'API key',
    search: (signal) => searchEmbyServers(kind, deps.embyDiscovery, signal),
    async test(server, signal) {
      const info = await systemInfo(deps.fetch, at(server), signal);
      return `${KIND_NAMES[kind]} "${info.name}" ${info.version} at ${new URL(server.url).host} accepts the API key`;
    },
    async libraries(server, signal) {
      return (await listLibraries(deps.fetch, at(server), signal)).map(({ id, title, type }) => ({ id, title, type }));
    },
    isTv: (s) => s.type === 'tvshows',
    async refresh(server, files, signal) {
      const library = server.sectionId && files.length ? (await listLibraries(deps.fetch, at(server), signal)).find((l) => l.id === server.sectionId) : undefined;
      const folders = foldersToUpdate(library, files);
      if (folders) {
        await refreshFolders(deps.fetch, at(server), folders, signal);
        return `${folders.length} new folder${folders.length === 1 ? '' : 's'} in library "${library!.title}"`;
      }
      await refreshAll(deps.fetch, at(server), signal);
      return 'all libraries';
    },
  };
}

/** The driver for the configured kind. */
export function driverFor(kind: MediaServerKind, deps: DriverDeps): ServerKindDriver {
  return kind === 'plex' ? plexDriver(deps) : embyFamilyDriver(kind, deps);
}
