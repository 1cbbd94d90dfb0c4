import { z } from 'zod';
import { isHostName, splitHostList } from '../core/host-check.js';
import type { RecordingFeatureModule, SettingDef } from './features/feature.js';

/** Extra host names the service answers to (DNS-rebinding defence, core/host-check.ts), separated by commas or spaces. */
const hostList = z
  .string()
  .max(2048)
  .refine((v) => splitHostList(v).every(isHostName), 'must be host names (such as pc.home.lan) separated by commas or spaces');

/** Who may reach the pages: the names this service answers to (read by its host check). */
export const accessSettings = {
  allowed_hosts: {
    schema: hostList,
    default: '',
    env: 'ALLOWED_HOSTS',
    applies: 'live',
    label: 'Other names for this computer',
    description: "Extra names this app answers to on your network, such as pc.home.lan, separated by commas. Its IP addresses, localhost and this computer's own name always work.",
  },
} as const satisfies Record<string, SettingDef>;

export const accessFeature: RecordingFeatureModule<typeof accessSettings> = { name: 'access', settings: accessSettings };
