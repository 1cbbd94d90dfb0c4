import { z } from 'zod';
import type { SettingDef } from '../features/setting-def.js';
import { httpUrlOrEmpty } from '../features/validators.js';

const wsUrlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^wss?$/ })]);
const secret = z.string().max(512);

/** The cloud delete's settings (its section of the settings API). */
export const cloudSettings = {
  cloud_api_url: {
    schema: httpUrlOrEmpty,
    default: '',
    applies: 'live',
    label: 'Cloud address',
    description: "The box maker's online service, used to delete recordings from the box once they are safely downloaded. Leave blank to keep them on the box.",
  },
  cloud_ws_url: {
    schema: wsUrlOrEmpty,
    default: '',
    applies: 'live',
    label: 'Cloud live channel',
    description: 'The address of the online service that passes a delete on to the box.',
  },
  cloud_activation_code: {
    schema: secret,
    default: '',
    secret: true,
    applies: 'live',
    label: 'Cloud activation code',
    description: 'The activation code of your account with the box maker. Only ever sent to the cloud addresses above; stays hidden once saved.',
  },
  cloud_pin: {
    schema: secret,
    default: '',
    secret: true,
    applies: 'live',
    label: 'Cloud PIN',
    description: 'The PIN of that account. Only ever sent to the cloud addresses above; stays hidden once saved.',
  },
} as const satisfies Record<string, SettingDef>;
