import { z } from 'zod';
import type { EnergyFeatureModule } from '../features/feature.js';
import { live, settingsSection, withDefaults } from '../features/section.js';

/** The battery's size and reserve, for time-to-full and time-to-empty (main/energy/estimate.ts). */
export const batterySettings = z
  .object({
    capacityKwh: z.number().positive().max(1000).nullable().default(null).meta({ ...live, description: 'Installed capacity; blank falls back to the rated-capacity register.' }),
    reserveSoc: z.number().min(0).max(100).nullable().default(null).meta({ ...live, description: 'Reserve SOC; blank falls back to the gateway backup-SOC register.' }),
  })
  .strict();

export const batterySection = settingsSection({ key: 'battery', schema: withDefaults(batterySettings) });

export const batteryFeature: EnergyFeatureModule<typeof batterySection> = { name: 'battery', settings: [batterySection] };
