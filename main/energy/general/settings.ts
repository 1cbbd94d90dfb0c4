import { z } from 'zod';
import { isHostName, splitHostList } from '../../core/host-check.js';
import type { EnergyFeatureModule } from '../features/feature.js';
import { live, restart, settingsSection, withDefaults } from '../features/section.js';

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** What the whole bridge uses: time zone, currency, units, its port and the names it answers to. */
export const generalSettings = z
  .object({
    timezone: z
      .string()
      .refine(isTimeZone, 'must be an IANA time zone such as Australia/Sydney')
      .default(() => process.env.TZ && isTimeZone(process.env.TZ) ? process.env.TZ : Intl.DateTimeFormat().resolvedOptions().timeZone)
      .meta({ ...live, description: 'Local day boundaries (energy today, tariff) use this zone.' }),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code').default('AUD').meta(live),
    temperatureUnit: z.enum(['celsius', 'fahrenheit']).default('celsius').meta(live),
    serverPort: z.number().int().min(1).max(65535).default(5163).meta({ ...restart, description: 'HTTP port of the energy bridge (SERVER_PORT seeds it).' }),
    allowedHosts: z
      .array(z.string().trim().toLowerCase().refine(isHostName, 'must be a host name such as pc.home.lan'))
      .max(32)
      .default([])
      .meta({ ...live, description: 'Extra host names this bridge answers to. IP addresses, localhost and this computer\'s own name (and .local) always work (ALLOWED_HOSTS seeds it).' }),
    eventStreamMaxClients: z.number().int().min(1).max(10_000).default(100).meta({ ...live, description: 'Most dashboards connected to the live event stream at once; more get 503.' }),
  })
  .strict();

export const generalSection = settingsSection({
  key: 'general',
  schema: withDefaults(generalSettings),
  seed: ({ env, int, str }) => ({
    ...(int(env.SERVER_PORT) ? { serverPort: int(env.SERVER_PORT) } : {}),
    ...(str(env.ALLOWED_HOSTS) ? { allowedHosts: splitHostList(str(env.ALLOWED_HOSTS)!).filter(isHostName) } : {}),
  }),
});

/** Settings only: the service itself reads them (main/energy/index.ts). */
export const generalFeature: EnergyFeatureModule<typeof generalSection> = { name: 'general', settings: [generalSection] };
