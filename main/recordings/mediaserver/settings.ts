import { z } from 'zod';
import type { SettingDef } from '../features/setting-def.js';
import { absolutePath, httpUrlOrEmpty } from '../features/validators.js';

/** The media server's settings (its section of the settings API). */
export const mediaServerSettings = {
  media_server_url: {
    schema: httpUrlOrEmpty,
    default: '',
    applies: 'live',
    label: 'Media server address',
    description: "Your Plex server's web address. After new downloads its library is refreshed so they show up. Leave blank if you have none.",
  },
  media_server_token: {
    schema: z.string().max(512),
    default: '',
    secret: true,
    applies: 'live',
    label: 'Media server token',
    description: 'The key that lets this app ask Plex to refresh. It is only ever sent to the media server address above, and stays hidden once saved.',
  },
  media_server_section_id: {
    schema: z.string().max(32).regex(/^\d*$/, 'must be a section number'),
    default: '',
    applies: 'live',
    label: 'Library section',
    description: 'The number of the Plex library your TV shows are in; Find my server fills it in.',
  },
  media_server_prefs_path: {
    schema: absolutePath,
    default: '/media-server-preferences.xml',
    env: 'MEDIA_SERVER_PREFS_PATH',
    applies: 'live',
    label: 'Plex preferences file',
    description: 'Where Plex keeps its Preferences.xml on this computer; the token can be read from it for you.',
  },
} as const satisfies Record<string, SettingDef>;
