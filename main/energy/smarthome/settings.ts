import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../settings-section.js';

export const smartHomeSettings = z
  .object({
    enabled: z.boolean().default(false).meta({ ...live, label: 'Smart-home link', description: 'Let a smart-home assistant ask this bridge for the battery level and power.' }),
    authToken: z
      .string()
      .max(512)
      .default('')
      .meta({ ...live, secret: 'hidden', label: 'Access token', description: 'The secret your smart-home assistant sends with each question. Once saved it is never shown again; the page only says whether one is set.' }),
  })
  .strict();

export const smartHomeSection = settingsSection({
  key: 'smartHome',
  schema: withDefaults(smartHomeSettings),
  seed: ({ env, str }) => (str(env.SMART_HOME_AUTH_TOKEN) ? { enabled: true, authToken: str(env.SMART_HOME_AUTH_TOKEN) } : {}),
  // The token is never shown, only whether one is set.
  publicView: ({ authToken, ...rest }) => ({ ...rest, tokenSet: authToken !== '' }),
  readOnly: ['tokenSet'],
});
