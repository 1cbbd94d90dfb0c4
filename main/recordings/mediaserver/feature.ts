import type { RecordingFeatureModule } from '../features/feature.js';
import { RATE_LIMITS } from '../http-security.js';
import { ownerOnlyError } from '../../core/owner-only.js';
import type { FastifyRequest } from 'fastify';
import { createMediaServerIntegration } from './media-server.js';
import { mediaServerSettings } from './settings.js';
import type { GdmTarget } from './gdm.js';
import type { EmbyDiscoveryTarget } from './emby-discovery.js';

/**
 * The media server (Plex, Jellyfin or Emby, as `media_server_kind` says): library refresh after a
 * run that downloaded, and its own routes: discovery, status, test, libraries, Plex's token from its
 * preferences.
 */
export const mediaServerFeature: RecordingFeatureModule<typeof mediaServerSettings, { config: { gdm: GdmTarget; embyDiscovery: EmbyDiscoveryTarget } }> = {
  name: 'mediaServer',
  settings: mediaServerSettings,
  secretDestinations: { media_server_token: ['media_server_url'] },
  create(ctx) {
    const mediaServer = createMediaServerIntegration({ settings: ctx.settings, fetch: ctx.lanFetch, gdm: ctx.config.gdm, embyDiscovery: ctx.config.embyDiscovery, clock: ctx.clock, logger: ctx.logger, stopSignal: ctx.stopSignal });
    /** The checks that send the saved key out on the owner's say only (a guest cannot make the PC probe with it). */
    const ownerOnly = {
      preHandler: async (req: FastifyRequest) => {
        if (!ctx.isOwner(req)) throw ownerOnlyError();
      },
      config: { rateLimit: RATE_LIMITS.discovery },
    };
    return {
      hooks: { mediaServer },
      capabilities: ['discover_media_server', 'detect_media_server_token'],
      routes(app) {
        /** No body: LAN search for the set kind (one server found and none set: saved); `{ url, token? }`: that server's libraries. */
        app.post('/api/discover-media-server', { config: { rateLimit: RATE_LIMITS.discovery } }, async (req) => mediaServer.discover(req.body, { owner: ctx.isOwner(req) }));
        /** The saved media server: answering (libraries listed with the saved token), token refused, or not answering. */
        app.get('/api/media-server', async () => mediaServer.status());
        /** Token detection from the media server's preferences file (`media_server_prefs_path`, Plex only); the answer shows it masked. */
        app.post('/api/media-server/detect-token', { config: { rateLimit: RATE_LIMITS.discovery } }, async (req) => mediaServer.detectToken(req.body));
        /** The saved server asked now with its saved token or API key: what answered, or why not (owner only). */
        app.post('/api/media-server/test', ownerOnly, async () => mediaServer.test());
        /** The saved server's libraries, each marked `tv` when it holds TV shows, to pick one (owner only). */
        app.post('/api/media-server/libraries', ownerOnly, async () => mediaServer.libraries());
      },
    };
  },
};
