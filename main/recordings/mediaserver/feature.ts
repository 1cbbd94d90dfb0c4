import type { RecordingFeatureModule } from '../features/feature.js';
import { createMediaServerIntegration } from './media-server.js';
import { mediaServerSettings } from './settings.js';
import type { GdmTarget } from './gdm.js';

/** The media server (Plex): library refresh after a run that downloaded, discovery, token from its preferences. */
export const mediaServerFeature: RecordingFeatureModule<typeof mediaServerSettings, { config: { gdm: GdmTarget } }> = {
  name: 'mediaServer',
  settings: mediaServerSettings,
  secretDestinations: { media_server_token: ['media_server_url'] },
  create(ctx) {
    const mediaServer = createMediaServerIntegration({ settings: ctx.settings, fetch: ctx.lanFetch, gdm: ctx.config.gdm, clock: ctx.clock, logger: ctx.logger, stopSignal: ctx.stopSignal });
    return {
      hooks: { mediaServer },
      seams: { discoverMediaServer: mediaServer.discover, detectMediaServerToken: mediaServer.detectToken, mediaServerStatus: mediaServer.status },
    };
  },
};
