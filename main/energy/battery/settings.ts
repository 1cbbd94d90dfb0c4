import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../settings-section.js';

/** The battery's size and reserve, for time-to-full and time-to-empty (main/energy/live/estimate.ts). */
export const batterySettings = z
  .object({
    capacityKwh: z.number().positive().max(1000).nullable().default(null).meta({ ...live, label: 'Battery capacity', description: "Your battery's usable size in kWh. Leave it blank to use the size the battery reports." }),
    reserveSoc: z.number().min(0).max(100).nullable().default(null).meta({ ...live, label: 'Reserve level', description: 'The charge kept back for a power cut, in %. Leave it blank to use the reserve set on the battery.' }),
  })
  .strict();

export const batterySection = settingsSection({ key: 'battery', schema: withDefaults(batterySettings) });
