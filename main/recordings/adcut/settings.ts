import { z } from 'zod';
import type { SettingDef } from '../features/setting-def.js';

/** Ad removal's settings (its section of the settings API). */
export const adRemovalSettings = {
  ad_removal_enabled: {
    schema: z.boolean(),
    default: false,
    applies: 'live',
    label: 'Remove ads',
    description: 'Look for ad breaks in new recordings and cut them out, for the shows set to do so.',
  },
  ad_original_retention_days: {
    schema: z.number().int().min(0).max(3650),
    default: 7,
    applies: 'live',
    label: 'Keep uncut copies (days)',
    description: 'How many days the uncut copy of a recording is kept after its ads are cut, in case a cut went wrong. 0 removes it at once.',
  },
} as const satisfies Record<string, SettingDef>;
