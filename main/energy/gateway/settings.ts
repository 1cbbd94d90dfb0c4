import { z } from 'zod';
import type { EnergyFeatureModule } from '../features/feature.js';
import { live, settingsSection, withDefaults } from '../features/section.js';

/** Where the gateway is and how it is asked. */
export const gatewaySettings = z
  .object({
    host: z.string().trim().max(253).default('').meta({ ...live, secret: 'locked', description: 'Gateway IP address or host name; blank until set or discovered.' }),
    port: z.number().int().min(1).max(65535).default(502).meta(live),
    inverterUnitFrom: z.number().int().min(1).max(246).default(1).meta({ ...live, description: 'First Modbus unit id probed for inverters.' }),
    inverterUnitTo: z.number().int().min(1).max(246).default(8).meta({ ...live, description: 'Last Modbus unit id probed for inverters.' }),
    timeoutMs: z.number().int().min(200).max(10_000).default(1000).meta({ ...live, description: 'Reply timeout per Modbus request.' }),
    probeTimeoutMs: z
      .number()
      .int()
      .min(50)
      .max(5000)
      .default(250)
      .meta({ ...live, description: 'Reply timeout of a probe for an inverter on a unit id that may have no device (many gateways never answer those).' }),
  })
  .strict()
  .refine((g) => g.inverterUnitFrom <= g.inverterUnitTo, { message: 'inverterUnitFrom must not exceed inverterUnitTo', path: ['inverterUnitTo'] });

/** How often the gateway is polled. */
export const pollingSettings = z
  .object({
    intervalMs: z.number().int().min(1000).max(600_000).default(5000).meta({ ...live, description: 'Poll interval; the gateway asks for at least 1 s between requests.' }),
    retryDelayMs: z.number().int().min(1000).max(600_000).default(10_000).meta({ ...live, description: 'Fixed delay before reconnecting after a drop.' }),
  })
  .strict();

/** Names the owner gives to what the gateway reports. */
export const namesSettings = z
  .object({
    /** PV string names keyed by inverter serial, then by string index (1..16). */
    strings: z.record(z.string().max(64), z.record(z.string().regex(/^([1-9]|1[0-6])$/), z.string().trim().min(1).max(40))).default({}).meta(live),
    /** Smart-load names keyed by slot (1..24). */
    smartLoads: z.record(z.string().regex(/^([1-9]|1\d|2[0-4])$/), z.string().trim().min(1).max(40)).default({}).meta(live),
  })
  .strict();

export const gatewaySection = settingsSection({
  key: 'gateway',
  schema: withDefaults(gatewaySettings),
  seed: ({ env, int }) => ({ host: env.GATEWAY_HOST?.trim() ?? '', ...(int(env.GATEWAY_PORT) ? { port: int(env.GATEWAY_PORT) } : {}) }),
  publicView: (g, blank) => (blank ? { ...g, host: '' } : g),
});

export const pollingSection = settingsSection({
  key: 'polling',
  schema: withDefaults(pollingSettings),
  seed: ({ env, int }) => ({ ...(int(env.POLL_INTERVAL_MS) ? { intervalMs: Math.max(1000, int(env.POLL_INTERVAL_MS)!) } : {}) }),
});

export const namesSection = settingsSection({ key: 'names', schema: withDefaults(namesSettings) });

/** The gateway and its polling (the service's poller reads them). */
export const gatewayFeature: EnergyFeatureModule<typeof gatewaySection | typeof pollingSection> = { name: 'gateway', settings: [gatewaySection, pollingSection] };
/** Names for PV strings and smart loads (after the battery section, where the settings file has them). */
export const namesFeature: EnergyFeatureModule<typeof namesSection> = { name: 'names', settings: [namesSection] };
