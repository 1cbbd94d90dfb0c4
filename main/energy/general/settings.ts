import { z } from 'zod';
import { isHostName, splitHostList } from '../../core/host-check.js';
import { isTimeZone, systemTimeZone } from '../../core/time-zone.js';
import { live, restart, settingsSection, withDefaults } from '../settings-section.js';

/** What the whole bridge uses: time zone, currency, units, its port and the names it answers to. */
export const generalSettings = z
  .object({
    timezone: z
      .string()
      .refine(isTimeZone, 'must be an IANA time zone such as Australia/Sydney')
      .default(() => systemTimeZone())
      .meta({ ...live, label: 'Time zone', description: 'Where your day starts and ends, for today\'s energy and for the tariff.' }),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code').default('AUD').meta({ ...live, label: 'Currency', description: 'The three-letter code of the money your tariff is in, such as AUD.' }),
    temperatureUnit: z.enum(['celsius', 'fahrenheit']).default('celsius').meta({ ...live, label: 'Temperature unit' }),
    serverPort: z.number().int().min(1).max(65535).default(5163).meta({ ...restart, label: 'Server port', description: 'The port these pages are served on. A change takes effect after a restart; then open the pages at the new port.' }),
    allowedHosts: z
      .array(z.string().trim().toLowerCase().refine(isHostName, 'must be a host name such as pc.home.lan'))
      .max(32)
      .default([])
      .meta({ ...live, label: 'Extra host names', description: 'Other names this computer has on your network that the pages should open under, such as pc.home.lan. Its IP addresses, localhost and its own name always work.' }),
    eventStreamMaxClients: z.number().int().min(1).max(10_000).default(100).meta({ ...live, label: 'Live dashboards at once', description: 'How many screens can show live readings at the same time; beyond that a new screen is turned away until another closes.' }),
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
