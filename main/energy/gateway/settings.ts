import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../settings-section.js';

/** Where the gateway is and how it is asked. */
export const gatewaySettings = z
  .object({
    host: z.string().trim().max(253).default('').meta({ ...live, secret: 'locked', label: 'Gateway address', description: "The gateway's IP address or name on your network. Leave it blank until you know it, or let the search find it." }),
    port: z.number().int().min(1).max(65535).default(502).meta({ ...live, label: 'Port', description: 'The port the gateway answers on. Leave it as it is unless your installer changed it.' }),
    inverterUnitFrom: z.number().int().min(1).max(246).default(1).meta({ ...live, label: 'First inverter unit ID', description: 'The first device number to look for inverters at. Most homes have one inverter, at number 1.' }),
    inverterUnitTo: z.number().int().min(1).max(246).default(8).meta({ ...live, label: 'Last inverter unit ID', description: 'The last device number to look for inverters at.' }),
    timeoutMs: z.number().int().min(200).max(10_000).default(1000).meta({ ...live, label: 'Reply timeout', description: 'How long to wait for the gateway to answer each question.' }),
    probeTimeoutMs: z
      .number()
      .int()
      .min(50)
      .max(5000)
      .default(250)
      .meta({ ...live, label: 'Search timeout', description: 'How long to wait at a device number that may have no inverter. Many gateways never answer there, so keep it short.' }),
  })
  .strict()
  .refine((g) => g.inverterUnitFrom <= g.inverterUnitTo, { message: 'inverterUnitFrom must not exceed inverterUnitTo', path: ['inverterUnitTo'] });

/** How often the gateway is polled. */
export const pollingSettings = z
  .object({
    intervalMs: z.number().int().min(1000).max(600_000).default(5000).meta({ ...live, label: 'Poll interval', description: 'How often readings are fetched from the gateway. It needs at least a second between questions.' }),
    retryDelayMs: z.number().int().min(1000).max(600_000).default(10_000).meta({ ...live, label: 'Retry delay', description: 'How long to wait before connecting again after the gateway drops the connection.' }),
  })
  .strict();

/** Names the owner gives to what the gateway reports. */
export const namesSettings = z
  .object({
    /** PV string names keyed by inverter serial, then by string index (1..16). */
    strings: z.record(z.string().max(64), z.record(z.string().regex(/^([1-9]|1[0-6])$/), z.string().trim().min(1).max(40))).default({}).meta({ ...live, label: 'PV string names', description: 'Your own names for the solar panel strings, shown on the dashboard.' }),
    /** Smart-load names keyed by slot (1..24). */
    smartLoads: z.record(z.string().regex(/^([1-9]|1\d|2[0-4])$/), z.string().trim().min(1).max(40)).default({}).meta({ ...live, label: 'Smart-load names', description: 'Your own names for the smart loads, shown on the dashboard.' }),
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
