import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../settings-section.js';

export const historySettings = z
  .object({
    retentionDays: z.number().min(1 / 24).max(366).default(7).meta({ ...live, label: 'Keep history for', description: 'How many days of readings are kept for the charts and exports.' }),
    minuteRetentionDays: z
      .number()
      .min(1)
      .max(3660)
      .default(400)
      .meta({
        ...live,
        label: 'Keep minute averages for',
        description: 'After the readings above are gone, the charts still show one point a minute for this many days, and one an hour for good after that.',
      }),
  })
  .strict();

export const historySection = settingsSection({ key: 'history', schema: withDefaults(historySettings) });
