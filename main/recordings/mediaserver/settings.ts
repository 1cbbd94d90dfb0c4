import { z } from 'zod';
import type { SettingDef } from '../features/setting-def.js';
import { absolutePath, httpUrlOrEmpty } from '../features/validators.js';

/** The media servers the service can refresh; Plex is the default so older settings files load unchanged. */
export const MEDIA_SERVER_KINDS = ['plex', 'jellyfin', 'emby'] as const;
export type MediaServerKind = (typeof MEDIA_SERVER_KINDS)[number];

/** The media server's settings (its section of the settings API). */
export const mediaServerSettings = {
  media_server_kind: {
    schema: z.enum(MEDIA_SERVER_KINDS),
    default: 'plex',
    applies: 'live',
    label: 'Media server',
    description: 'Which media server you run: Plex, Jellyfin or Emby. Discover looks for this kind on your network.',
  },
  media_server_url: {
    schema: httpUrlOrEmpty,
    default: '',
    applies: 'live',
    label: 'Media server address',
    description: "Your media server's web address (Plex usually on port 32400, Jellyfin and Emby on 8096). After new downloads its library is refreshed so they show up. Leave blank if you have none.",
  },
  media_server_token: {
    schema: z.string().max(512),
    default: '',
    secret: true,
    applies: 'live',
    label: 'Media server token',
    description: "The key that lets this app ask the media server to refresh: Plex's token, or an API key made in Jellyfin's or Emby's dashboard (API Keys). It is only ever sent to the media server address above, and stays hidden once saved.",
  },
  media_server_section_id: {
    schema: z.string().max(64).regex(/^[A-Za-z0-9-]*$/, 'must be a library id (letters, digits and dashes)'),
    default: '',
    applies: 'live',
    label: 'Library section',
    description: 'The library your TV shows are in (a Plex section number, or a Jellyfin or Emby library id); Discover (or Choose library) fills it in.',
  },
  media_server_prefs_path: {
    schema: absolutePath,
    default: '/media-server-preferences.xml',
    env: 'MEDIA_SERVER_PREFS_PATH',
    applies: 'live',
    label: 'Plex preferences file',
    description: 'Where Plex keeps its Preferences.xml on this computer; the token can be read from it for you (Plex only).',
  },
} as const satisfies Record<string, SettingDef>;
