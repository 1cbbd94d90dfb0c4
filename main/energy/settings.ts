import { z } from 'zod';

/**
 * The energy bridge's settings: one schema validates input, types the code and documents the API.
 * `.meta({ applies })` says whether a change applies live or after a restart; `.meta({ secret })`
 * marks what GET /api/settings strips or blanks.
 */
const live = { applies: 'live' } as const;
const restart = { applies: 'restart' } as const;

export const gatewaySettings = z
  .object({
    host: z.string().trim().max(253).default('').meta({ ...live, description: 'Gateway IP address or host name; blank until set or discovered.' }),
    port: z.number().int().min(1).max(65535).default(502).meta(live),
    inverterUnitFrom: z.number().int().min(1).max(246).default(1).meta({ ...live, description: 'First Modbus unit id probed for inverters.' }),
    inverterUnitTo: z.number().int().min(1).max(246).default(8).meta({ ...live, description: 'Last Modbus unit id probed for inverters.' }),
    timeoutMs: z.number().int().min(200).max(10_000).default(1000).meta({ ...live, description: 'Reply timeout per Modbus request.' }),
  })
  .strict()
  .refine((g) => g.inverterUnitFrom <= g.inverterUnitTo, { message: 'inverterUnitFrom must not exceed inverterUnitTo', path: ['inverterUnitTo'] });

export const pollingSettings = z
  .object({
    intervalMs: z.number().int().min(1000).max(600_000).default(5000).meta({ ...live, description: 'Poll interval; the gateway asks for at least 1 s between requests.' }),
    retryDelayMs: z.number().int().min(1000).max(600_000).default(10_000).meta({ ...live, description: 'Fixed delay before reconnecting after a drop.' }),
  })
  .strict();

export const historySettings = z
  .object({
    retentionDays: z.number().min(1 / 24).max(366).default(7).meta({ ...live, description: 'How long history is kept, in memory and on disk.' }),
  })
  .strict();

export const batterySettings = z
  .object({
    capacityKwh: z.number().positive().max(1000).nullable().default(null).meta({ ...live, description: 'Installed capacity; blank falls back to the rated-capacity register.' }),
    reserveSoc: z.number().min(0).max(100).nullable().default(null).meta({ ...live, description: 'Reserve SOC; blank falls back to the gateway backup-SOC register.' }),
  })
  .strict();

export const namesSettings = z
  .object({
    /** PV string names keyed by inverter serial, then by string index (1..16). */
    strings: z.record(z.string().max(64), z.record(z.string().regex(/^([1-9]|1[0-6])$/), z.string().trim().min(1).max(40))).default({}).meta(live),
    /** Smart-load names keyed by slot (1..24). */
    smartLoads: z.record(z.string().regex(/^([1-9]|1\d|2[0-4])$/), z.string().trim().min(1).max(40)).default({}).meta(live),
  })
  .strict();

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
  })
  .strict();

export const energySettingsSchema = z
  .object({
    general: generalSettings.default(() => generalSettings.parse({})),
    gateway: gatewaySettings.default(() => gatewaySettings.parse({})),
    polling: pollingSettings.default(() => pollingSettings.parse({})),
    history: historySettings.default(() => historySettings.parse({})),
    battery: batterySettings.default(() => batterySettings.parse({})),
    names: namesSettings.default(() => namesSettings.parse({})),
  })
  .strict();

export type EnergySettings = z.output<typeof energySettingsSchema>;

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Settings seeded from the environment: used on first start and by a settings reset. */
export function energySeedsFromEnv(env: NodeJS.ProcessEnv): EnergySettings {
  const int = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : undefined);
  return energySettingsSchema.parse({
    general: { ...(int(env.SERVER_PORT) ? { serverPort: int(env.SERVER_PORT) } : {}) },
    gateway: { host: env.GATEWAY_HOST?.trim() ?? '', ...(int(env.GATEWAY_PORT) ? { port: int(env.GATEWAY_PORT) } : {}) },
    polling: { ...(int(env.POLL_INTERVAL_MS) ? { intervalMs: Math.max(1000, int(env.POLL_INTERVAL_MS)!) } : {}) },
  });
}
