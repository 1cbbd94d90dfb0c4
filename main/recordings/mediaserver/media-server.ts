import { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { parseInput } from '../../core/validate.js';
import type { FetchLike } from '../box/description.js';
import { hostPort, noHttpAnswer } from '../../core/outbound.js';
import { SECRET_MASK, type FeatureSettingsOf } from '../features/feature.js';
import type { MediaServerKind, mediaServerSettings } from './settings.js';
import type { GdmTarget } from './gdm.js';
import type { EmbyDiscoveryTarget } from './emby-discovery.js';
import { MediaServerError, type MediaServerSection } from './media-server-http.js';
import { listSections } from './plex-client.js';
import { readTokenFromPrefs, TokenDetectionError } from './prefs-token.js';
import { driverFor, type ServerKindDriver } from './server-kinds.js';

export interface MediaServerDeps {
  settings: FeatureSettingsOf<typeof mediaServerSettings>;
  fetch: FetchLike;
  /** Where Plex's GDM searches go (loopback in tests and the demo). */
  gdm: GdmTarget;
  /** Where Jellyfin's and Emby's discovery datagrams go (loopback in tests and the demo). */
  embyDiscovery: EmbyDiscoveryTarget;
  clock: Clock;
  logger: Logger;
  /** Aborted when the service stops. */
  stopSignal?: AbortSignal;
}

/** Body of `POST /api/discover-media-server`: none (LAN search), or a chosen server whose sections to list. */
const discoverBody = z
  .object({
    url: z.url({ protocol: /^https?$/ }).max(512).optional(),
    token: z.string().min(1).max(512).optional(),
  })
  .strict();

/**
 * The answer about a server the caller named: short plain words, the same for a closed port, a
 * silent host and a service that does not speak HTTP (the detail goes to the log only).
 */
const callerTargetFailure = (url: string, err: unknown, log: Logger): never => {
  if (!(err instanceof MediaServerError)) throw err;
  log.info({ target: hostPort(new URL(url)), detail: err.message }, 'media server check failed');
  if (err.kind === 'unauthorized') throw new AppError(502, 'media_server_unauthorized', `${hostPort(new URL(url))} refused the token; check it or detect it again`);
  if (err.kind === 'refused') throw new AppError(400, 'invalid', `url: ${err.message}`, { field: 'url' });
  if (err.kind === 'no_answer') throw new AppError(502, 'no_http_answer', noHttpAnswer(url));
  throw new AppError(502, 'media_server_failed', `${hostPort(new URL(url))} answered HTTP, but not as a media server`);
};

/** The answer about the saved server: what failed, in short plain words (the detail goes to the log). */
const savedTargetFailure = (url: string, err: unknown, log: Logger): never => {
  if (!(err instanceof MediaServerError)) throw err;
  const where = hostPort(new URL(url));
  log.info({ target: where, detail: err.message }, 'media server check failed');
  if (err.kind === 'unauthorized') throw new AppError(502, 'media_server_unauthorized', `${where} refused the key; check it or paste it again`);
  if (err.kind === 'refused') throw new AppError(400, 'invalid', `media_server_url: ${err.message}`, { field: 'media_server_url' });
  if (err.kind === 'no_answer') throw new AppError(502, 'no_http_answer', noHttpAnswer(url));
  throw new AppError(502, 'media_server_failed', `${where} answered HTTP, but not as the media server set (${err.message})`);
};

/** A token that could not be read, without saying why (which would tell one file from another). */
const noToken = (file: string) => `no media-server token was found in ${file}: set media_server_prefs_path (or MEDIA_SERVER_PREFS_PATH) to the media server's Preferences.xml, signed in to its account`;

/** Who asked: the owner (from the PC itself or with a session) or another device. */
export interface Caller {
  owner: boolean;
}

/** `GET /api/media-server`: whether the saved media server answers now (asked, not assumed). */
export interface MediaServerStatus {
  configured: boolean;
  /** `answering`: it listed its libraries with the saved token; `token_refused`: it answered but refused the token. */
  state: 'not_configured' | 'answering' | 'token_refused' | 'not_answering';
  /** One short line when it is not answering as it should. */
  message?: string;
  /** The saved library (`media_server_section_id`) as the server names it now; absent when none is saved or the server no longer lists it. */
  library?: { id: string; name: string };
}

/** How long `GET /api/media-server` reuses the server's answer (pages poll it; the server is asked at most this often). */
export const MEDIA_SERVER_STATUS_CACHE_MS = 30_000;
/** How long that check waits for the server (shorter than a refresh: a page is waiting). */
const STATUS_TIMEOUT_MS = 3000;

export interface MediaServerIntegration {
  /**
   * The sync hook: refresh the configured library (only the folders of `files`, the run's new files,
   * where the library shows them: Plex one `?path=` refresh per folder, Jellyfin and Emby one
   * `Media/Updated`); `not_configured` without a server URL. Throws on failure.
   */
  refreshLibrary(signal?: AbortSignal, files?: readonly string[]): Promise<'ok' | 'not_configured'>;
  /** `POST /api/media-server/test`: asks the saved server now, with its saved key (owner only). */
  test(): Promise<Record<string, unknown>>;
  /** `POST /api/media-server/libraries`: the saved server's libraries, to pick the TV one (owner only). */
  libraries(): Promise<Record<string, unknown>>;
  /** Asks the saved server for its libraries (cached for MEDIA_SERVER_STATUS_CACHE_MS per URL). */
  status(): Promise<MediaServerStatus>;
  /** A server found on the LAN while none is set is saved, as the owner's only when the owner asked. */
  discover(body: unknown, caller?: Caller): Promise<Record<string, unknown>>;
  /**
   * Reads the token from the preferences file and stores it, bound to the media server address;
   * refused (403 `owner_only`, nothing read or sent) while that address is not one the owner set.
   */
  detectToken(body: unknown): Promise<Record<string, unknown>>;
}

export function createMediaServerIntegration(deps: MediaServerDeps): MediaServerIntegration {
  const log = deps.logger.child({ component: 'media-server' });
  const save = (patch: Record<string, string>, caller?: Caller) => deps.settings.patch(patch, deps.clock.now(), { owner: caller?.owner === true });
  let statusCache: { key: string; at: number; status: MediaServerStatus } | null = null;
  const driver = (): ServerKindDriver => driverFor(deps.settings.get().media_server_kind as MediaServerKind, deps);
  /** The saved server and the key given for it (none: '' ). */
  const saved = () => {
    const s = deps.settings.get();
    return { url: s.media_server_url, token: deps.settings.secretFor('media_server_token', s.media_server_url), sectionId: s.media_server_section_id };
  };

  const askStatus = async (url: string, sectionId: string): Promise<MediaServerStatus> => {
    const timeout = AbortSignal.timeout(STATUS_TIMEOUT_MS);
    const signal = deps.stopSignal ? AbortSignal.any([deps.stopSignal, timeout]) : timeout;
    try {
      const sections = await driver().libraries({ url, token: deps.settings.secretFor('media_server_token', url) }, signal);
      // The library's name is looked up in the same answer: a renamed library shows its new name.
      const library = sectionId ? sections.find((x) => x.id === sectionId) : undefined;
      return { configured: true, state: 'answering', ...(library ? { library: { id: library.id, name: library.title || library.id } } : {}) };
    } catch (err) {
      if (!(err instanceof MediaServerError)) throw err;
      log.info({ target: hostPort(new URL(url)), detail: err.message }, 'saved media server check failed');
      if (err.kind === 'unauthorized') return { configured: true, state: 'token_refused', message: `${hostPort(new URL(url))} answered but refused the token` };
      if (err.kind === 'no_answer') return { configured: true, state: 'not_answering', message: noHttpAnswer(url) };
      return { configured: true, state: 'not_answering', message: `${hostPort(new URL(url))} answered HTTP, but not as a media server` };
    }
  };

  return {
    async status() {
      const { url, token, sectionId } = saved();
      if (!url) return { configured: false, state: 'not_configured' };
      const now = deps.clock.now();
      // Another kind, key or library is another question (the key stays in memory only, as in the settings).
      const key = `${deps.settings.get().media_server_kind} ${url} ${token} ${sectionId}`;
      if (statusCache && statusCache.key === key && now - statusCache.at < MEDIA_SERVER_STATUS_CACHE_MS) return statusCache.status;
      const status = await askStatus(url, sectionId);
      statusCache = { key, at: now, status };
      return status;
    },

    async refreshLibrary(signal, files = []) {
      const server = saved();
      if (!server.url) return 'not_configured';
      const d = driver();
      const what = await d.refresh(server, files, signal);
      log.info({ kind: d.label, refreshed: what }, 'media server library refresh accepted');
      return 'ok';
    },

    async test() {
      const server = saved();
      const d = driver();
      if (!server.url) throw new AppError(409, 'not_configured', `Media server address: set it (or press Discover) before testing ${d.label}`, { field: 'media_server_url' });
      if (!server.token) throw new AppError(409, 'not_configured', `Media server token: paste ${d.label}'s ${d.secretName} for ${hostPort(new URL(server.url))} before testing`, { field: 'media_server_token' });
      const message = await d.test(server, deps.stopSignal).catch((err: unknown) => savedTargetFailure(server.url, err, log));
      statusCache = null;
      return { ok: true, kind: deps.settings.get().media_server_kind, message };
    },

    async libraries() {
      const server = saved();
      const d = driver();
      if (!server.url || !server.token) throw new AppError(409, 'not_configured', `Media server token: set the address and ${d.label}'s ${d.secretName} first`, { field: server.url ? 'media_server_token' : 'media_server_url' });
      const sections = await d.libraries(server, deps.stopSignal).catch((err: unknown) => savedTargetFailure(server.url, err, log));
      const libraries = sections.map((x) => ({ ...x, tv: d.isTv(x) }));
      return { libraries, selected: server.sectionId, message: `${libraries.length} librar${libraries.length === 1 ? 'y' : 'ies'} on ${d.label} at ${hostPort(new URL(server.url))}` };
    },

    async discover(body, caller) {
      const input = parseInput(discoverBody, body ?? {}, 'body');
      const s = deps.settings.get();
      if (input.url) {
        // A server the caller names never gets the stored token: only a token given in this request.
        const url = input.url;
        const sections = await driver().libraries({ url, token: input.token ?? '' }, deps.stopSignal).catch((err: unknown) => callerTargetFailure(url, err, log));
        return { server: { url: input.url }, sections, message: `${sections.length} librar${sections.length === 1 ? 'y' : 'ies'} on ${new URL(input.url).host}` };
      }
      const d = driver();
      const servers = await d.search(deps.stopSignal);
      const notes: string[] = [servers.length ? `Found ${servers.map((x) => `${x.name} at ${x.url}`).join(', ')}` : `No ${d.label} server answered on the LAN`];
      if (servers.length === 1 && !s.media_server_url) {
        save({ media_server_url: servers[0]!.url }, caller);
        notes.push('saved as the media server URL');
      }
      const now = deps.settings.get();
      let sections: MediaServerSection[] | null = null;
      let sections_error: string | undefined;
      const token = deps.settings.secretFor('media_server_token', now.media_server_url);
      if (now.media_server_url && token) {
        try {
          sections = await d.libraries({ url: now.media_server_url, token }, deps.stopSignal);
          const shows = sections.filter((x) => d.isTv(x));
          if (!now.media_server_section_id && shows.length === 1) {
            save({ media_server_section_id: shows[0]!.id });
            notes.push(now.media_server_kind === 'plex' ? `library "${shows[0]!.title}" (section ${shows[0]!.id}) saved as the section to refresh` : `library "${shows[0]!.title}" saved as the TV library`);
          } else notes.push(`${sections.length} librar${sections.length === 1 ? 'y' : 'ies'} on the configured server`);
        } catch (err) {
          sections_error = (err as Error).message;
          notes.push(sections_error);
        }
      } else if (now.media_server_url) notes.push(now.media_server_kind === 'plex' ? 'set the token (or detect it) to list its libraries' : `paste ${d.label}'s API key (its dashboard, API Keys) to list its libraries`);
      return { servers, sections, ...(sections_error ? { sections_error } : {}), message: notes.join('; ') };
    },

    async detectToken(body) {
      parseInput(z.object({}).strict(), body ?? {}, 'body');
      const kind = deps.settings.get().media_server_kind;
      if (kind !== 'plex') {
        const d = driver();
        throw new AppError(409, 'not_plex', `Media server token: only Plex keeps its token in a preferences file; for ${d.label}, make an API key in its dashboard (API Keys) and paste it here`, { field: 'media_server_token' });
      }
      // A token read from the PC goes only to the media server its owner set: an address another
      // device just wrote (to a listener of its own) never gets it.
      if (deps.settings.get().media_server_url && !deps.settings.ownerSet('media_server_url')) {
        log.warn('media server token not detected: the media server address was not set by the owner');
        throw new AppError(403, 'owner_only', 'Media server address: it was set from another device, so the token read on this PC is not sent there. Check the address and save it from the PC itself (or with the passcode unlocked), then detect the token again.', { field: 'media_server_url' });
      }
      const file = deps.settings.get().media_server_prefs_path;
      let token: string;
      try {
        token = readTokenFromPrefs(file);
      } catch (err) {
        if (!(err instanceof TokenDetectionError)) throw err;
        // The reason (missing, unreadable, not a preferences file, no token) goes to the log only:
        // the answer must not tell one file from another.
        log.warn({ path: file, detail: err.message }, 'media server token not detected');
        throw new AppError(422, 'token_not_found', noToken(file));
      }
      const result = save({ media_server_token: token });
      if (result.cleared.length) log.warn({ cleared: result.cleared }, 'unexpected: secrets cleared while storing a detected token');
      log.info({ path: file }, 'media server token detected and stored');
      const s = deps.settings.get();
      let verified: boolean | null = null;
      let note = 'saved';
      if (s.media_server_url) {
        try {
          await listSections(deps.fetch, { url: s.media_server_url, token: deps.settings.secretFor('media_server_token', s.media_server_url) }, deps.stopSignal);
          verified = true;
          note = 'saved; the media server accepts it';
        } catch (err) {
          verified = false;
          note = `saved, but checking it failed: ${(err as Error).message}`;
        }
      }
      return { detected: true, path: file, token: SECRET_MASK, verified, message: `Token found in ${file}: ${note}`, ...(s.media_server_url ? { bound_to: new URL(s.media_server_url).origin } : {}) };
    },
  };
}
