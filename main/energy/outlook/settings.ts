import { z } from 'zod';
import { settingsSection, withDefaults } from '../settings-section.js';

/** The solar plant (settings section `solar`), owned by the outlook feature. */
export const solarSettings = z
  .object({
    ratedKwp: z
      .number()
      .positive()
      .max(1000)
      .nullable()
      .default(null)
      .meta({ applies: 'live', label: 'Rated size', description: "Your solar panels' rated size in kWp, as on the installer's paperwork. Until the bridge has three days of its own history, the solar forecast uses this size to guess the day's production." }),
  })
  .strict();

export const solarSection = settingsSection({ key: 'solar', schema: withDefaults(solarSettings) });
