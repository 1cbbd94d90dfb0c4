import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../settings-section.js';

export const historySettings = z
  .object({
    retentionDays: z.number().min(1 / 24).max(366).default(7).meta({ ...live, label: 'Keep history for', description: 'How many days of readings are kept for the charts and exports.' }),
  })
  .strict();

export const historySection = settingsSection({ key: 'history', schema: withDefaults(historySettings) });
