import { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { parseInput } from '../../core/validate.js';
import type { FetchLike } from '../box/description.js';
import { hostPort, noHttpAnswer } from '../../core/outbound.js';
import { SECRET_MASK, type FeatureSettingsOf } from '../features/feature.js';
import type { mediaServerSettings } from './settings.js';
import { searchMediaServers, type FoundMediaServer, type GdmTarget } from './gdm.js';
import { listSections, MediaServerError, refreshSection, type MediaServerSection } from './plex-client.js';
import { readTokenFromPrefs, TokenDetectionError } from './prefs-token.js';

export interface MediaServerDeps {
  settings: FeatureSettingsOf<typeof mediaServerSettings>;
  fetch: FetchLike;
  /** Where GDM searches go (loopback in tests and the demo). */
  gdm: GdmTarget;
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
}

/** How long `GET /api/media-server` reuses the server's answer (pages poll it; the server is asked at most this often). */
export const MEDIA_SERVER_STATUS_CACHE_MS = 30_000;
/** How long that check waits for the server (shorter than a refresh: a page is waiting). */
const STATUS_TIMEOUT_MS = 3000;

export interface MediaServerIntegration {
  /** The sync hook: refresh the configured section; `not_configured` without a server URL. Throws on failure. */
  refreshLibrary(signal?: AbortSignal): Promise<'ok' | 'not_configured'>;
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
  let statusCache: { url: string; at: number; status: MediaServerStatus } | null = null;

  const askStatus = async (url: string): Promise<MediaServerStatus> => {
    const timeout = AbortSignal.timeout(STATUS_TIMEOUT_MS);
    const signal = deps.stopSignal ? AbortSignal.any([deps.stopSignal, timeout]) : timeout;
    try {
      await listSections(deps.fetch, { url, token: deps.settings.secretFor('media_server_token', url) }, signal);
      return { configured: true, state: 'answering' };
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
      const url = deps.settings.get().media_server_url;
      if (!url) return { configured: false, state: 'not_configured' };
      const now = deps.clock.now();
      if (statusCache && statusCache.url === url && now - statusCache.at < MEDIA_SERVER_STATUS_CACHE_MS) return statusCache.status;
      const status = await askStatus(url);
      statusCache = { url, at: now, status };
      return status;
    },

    async refreshLibrary(signal) {
      const s = deps.settings.get();
      if (!s.media_server_url) return 'not_configured';
      await refreshSection(deps.fetch, { url: s.media_server_url, token: deps.settings.secretFor('media_server_token', s.media_server_url), sectionId: s.media_server_section_id }, signal);
      log.info({ section: s.media_server_section_id }, 'media server library refresh accepted');
      return 'ok';
    },

    async discover(body, caller) {
      const input = parseInput(discoverBody, body ?? {}, 'body');
      const s = deps.settings.get();
      if (input.url) {
        // A server the caller names never gets the stored token: only a token given in this request.
        const url = input.url;
        const sections = await listSections(deps.fetch, { url, token: input.token ?? '' }, deps.stopSignal).catch((err: unknown) => callerTargetFailure(url, err, log));
        return { server: { url: input.url }, sections, message: `${sections.length} librar${sections.length === 1 ? 'y' : 'ies'} on ${new URL(input.url).host}` };
      }
      const servers: FoundMediaServer[] = await searchMediaServers(deps.gdm, deps.stopSignal);
      const notes: string[] = [servers.length ? `Found ${servers.map((x) => `${x.name} at ${x.url}`).join(', ')}` : 'No media server answered on the LAN'];
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
          sections = await listSections(deps.fetch, { url: now.media_server_url, token }, deps.stopSignal);
          const shows = sections.filter((x) => x.type === 'show');
          if (!now.media_server_section_id && shows.length === 1) {
            save({ media_server_section_id: shows[0]!.id });
            notes.push(`library "${shows[0]!.title}" (section ${shows[0]!.id}) saved as the section to refresh`);
          } else notes.push(`${sections.length} librar${sections.length === 1 ? 'y' : 'ies'} on the configured server`);
        } catch (err) {
          sections_error = (err as Error).message;
          notes.push(sections_error);
        }
      } else if (now.media_server_url) notes.push('set the token (or detect it) to list its libraries');
      return { servers, sections, ...(sections_error ? { sections_error } : {}), message: notes.join('; ') };
    },

    async detectToken(body) {
      parseInput(z.object({}).strict(), body ?? {}, 'body');
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
