import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../features/section.js';

export const smartHomeSettings = z
  .object({
    enabled: z.boolean().default(false).meta(live),
    authToken: z
      .string()
      .max(512)
      .default('')
      .meta({ ...live, secret: 'hidden', description: 'Bearer token /fulfillment expects; write-only (GET shows tokenSet). Seeded from SMART_HOME_AUTH_TOKEN.' }),
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
