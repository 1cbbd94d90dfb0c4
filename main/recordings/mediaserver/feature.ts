import type { RecordingFeatureModule } from '../features/feature.js';
import { RATE_LIMITS } from '../http-security.js';
import { createMediaServerIntegration } from './media-server.js';
import { mediaServerSettings } from './settings.js';
import type { GdmTarget } from './gdm.js';

/**
 * The media server (Plex): library refresh after a run that downloaded, and its own routes:
 * discovery, status, token from its preferences.
 */
export const mediaServerFeature: RecordingFeatureModule<typeof mediaServerSettings, { config: { gdm: GdmTarget } }> = {
  name: 'mediaServer',
  settings: mediaServerSettings,
  secretDestinations: { media_server_token: ['media_server_url'] },
  create(ctx) {
    const mediaServer = createMediaServerIntegration({ settings: ctx.settings, fetch: ctx.lanFetch, gdm: ctx.config.gdm, clock: ctx.clock, logger: ctx.logger, stopSignal: ctx.stopSignal });
    return {
      hooks: { mediaServer },
      capabilities: ['discover_media_server', 'detect_media_server_token'],
      routes(app) {
        /** No body: GDM search (one server found and none set: saved); `{ url, token? }`: that server's libraries. */
        app.post('/api/discover-media-server', { config: { rateLimit: RATE_LIMITS.discovery } }, async (req) => mediaServer.discover(req.body, { owner: ctx.isOwner(req) }));
        /** The saved media server: answering (libraries listed with the saved token), token refused, or not answering. */
        app.get('/api/media-server', async () => mediaServer.status());
        /** Token detection from the media server's preferences file (`media_server_prefs_path`); the answer shows it masked. */
        app.post('/api/media-server/detect-token', { config: { rateLimit: RATE_LIMITS.discovery } }, async (req) => mediaServer.detectToken(req.body));
      },
    };
  },
};
