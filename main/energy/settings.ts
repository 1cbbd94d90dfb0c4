import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { isHostName, splitHostList } from '../core/host-check.js';
import { findOverlap } from './tariff/windows.js';
import { solarSettings } from './features/outlook/settings.js';

/**
 * The energy bridge's settings: one schema validates input, types the code and documents the API.
 * `.meta({ applies })` says whether a change applies live or after a restart; `.meta({ secret })`
 * marks what GET /api/settings hides: `hidden` is never returned (shown as a `…Set` flag), `locked`
 * is blanked while a passcode is set and the request carries no session. `generated` marks a default
 * drawn at random on first start (left out of the published JSON Schema).
 */
const live = { applies: 'live' } as const;
const restart = { applies: 'restart' } as const;

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
const httpUrl = z.string().trim().max(2048).refine(isHttpUrl, 'must be an http(s) URL');
const httpUrlOrBlank = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => v === '' || isHttpUrl(v), 'must be blank or an http(s) URL')
  .default('');

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
    allowedHosts: z
      .array(z.string().trim().toLowerCase().refine(isHostName, 'must be a host name such as pc.home.lan'))
      .max(32)
      .default([])
      .meta({ ...live, description: 'Extra host names this bridge answers to. IP addresses, localhost and this computer\'s own name (and .local) always work (ALLOWED_HOSTS seeds it).' }),
    eventStreamMaxClients: z.number().int().min(1).max(10_000).default(100).meta({ ...live, description: 'Most dashboards connected to the live event stream at once; more get 503.' }),
  })
  .strict();

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM (24-hour)');
const money = (max: number) => z.number().min(0).max(max);
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const weekdays = z
  .array(z.enum(WEEKDAYS))
  .min(1)
  .max(7)
  .default(() => [...WEEKDAYS]);

export const tariffWindow = z
  .object({
    name: z.string().trim().min(1).max(40).default('Window').meta(live),
    start: hhmm.default('00:00').meta({ ...live, description: 'Start (inclusive), local time.' }),
    end: hhmm.default('00:00').meta({ ...live, description: 'End (exclusive), local time; an end at or before the start wraps past midnight.' }),
    days: weekdays.meta(live),
    importRate: money(100).default(0).meta({ ...live, description: 'Price per kWh imported inside the window.' }),
    feedInRate: money(100).nullable().default(null).meta({ ...live, description: 'Credit per kWh exported inside the window; blank uses the fallback feed-in rate.' }),
  })
  .strict();

export const tariffSettings = z
  .object({
    importRate: money(100).default(0).meta({ ...live, description: 'Fallback price per kWh imported outside every window.' }),
    feedInRate: money(100).default(0).meta({ ...live, description: 'Fallback credit per kWh exported.' }),
    dailySupplyCharge: money(1000).default(0).meta({ ...live, description: 'Fixed charge per local day.' }),
    windows: z.array(tariffWindow).max(24).default([]).meta({ ...live, description: 'Time-of-use windows; the first match wins.' }),
    superExport: z
      .object({
        enabled: z.boolean().default(false).meta(live),
        rate: money(100).default(0).meta({ ...live, description: 'Credit per kWh exported inside the window.' }),
        start: hhmm.default('18:00').meta(live),
        end: hhmm.default('20:00').meta(live),
        capKwh: z.number().min(0).max(1000).default(10).meta({ ...live, description: 'kWh per day that earn the super-export rate.' }),
      })
      .strict()
      .default(() => ({ enabled: false, rate: 0, start: '18:00', end: '20:00', capKwh: 10 }))
      .meta(live),
    zeroDraw: z
      .object({
        enabled: z.boolean().default(false).meta(live),
        credit: money(1000).default(0).meta({ ...live, description: 'Credit per day when import stays at about zero inside the window.' }),
        start: hhmm.default('16:00').meta(live),
        end: hhmm.default('21:00').meta(live),
        toleranceKwh: z.number().min(0).max(10).default(0.05).meta({ ...live, description: 'Import inside the window that still counts as zero.' }),
      })
      .strict()
      .default(() => ({ enabled: false, credit: 0, start: '16:00', end: '21:00', toleranceKwh: 0.05 }))
      .meta(live),
  })
  .strict()
  .superRefine((t, ctx) => {
    // Windows may not overlap on a shared day; the credit windows run within one day (end after start).
    const overlap = findOverlap(t.windows);
    if (overlap) ctx.addIssue({ code: 'custom', path: ['windows', overlap[1], 'start'], message: `overlaps window ${overlap[0] + 1} ("${t.windows[overlap[0]]!.name}") on a shared day` });
    for (const key of ['superExport', 'zeroDraw'] as const) {
      if (t[key].end <= t[key].start) ctx.addIssue({ code: 'custom', path: [key, 'end'], message: 'must be after the start (this window runs within one day)' });
    }
  });

export const ALERT_TRIGGERS = ['batterySoc', 'gridImport', 'gridExport', 'solarPower', 'homeLoad', 'batteryPower', 'gatewayOffline', 'peakNotCovered'] as const;
/** Units a threshold may be given in, per trigger (the first is the default). */
export const ALERT_UNITS = { batterySoc: ['%'], gridImport: ['W', 'kW'], gridExport: ['W', 'kW'], solarPower: ['W', 'kW'], homeLoad: ['W', 'kW'], batteryPower: ['W', 'kW'], gatewayOffline: [''], peakNotCovered: [''] } as const;
/** Most alert rules kept. */
export const MAX_ALERTS = 24;

export const alertSettings = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _')
      .default(() => randomBytes(6).toString('hex'))
      .meta({ ...live, generated: true, description: 'Stable id; generated when omitted.' }),
    name: z.string().trim().min(1).max(60).default('Alert').meta(live),
    enabled: z.boolean().default(true).meta(live),
    trigger: z.enum(ALERT_TRIGGERS).default('batterySoc').meta({ ...live, description: 'Watched value: battery SOC (%), grid import/export, solar, home or battery power (W, battery positive charging), gateway offline, or the battery will not cover a peak window (from the battery outlook).' }),
    condition: z.enum(['atOrAbove', 'atOrBelow']).default('atOrBelow').meta({ ...live, description: 'Inclusive comparison with the threshold.' }),
    threshold: z.number().min(-1_000_000).max(1_000_000).default(20).meta(live),
    unit: z.enum(['%', 'W', 'kW', '']).nullable().default(null).meta({ ...live, description: "Unit of the threshold: % for SOC, W or kW for power; blank uses the trigger's own unit." }),
    settleSeconds: z.number().int().min(0).max(86_400).default(60).meta({ ...live, description: 'How long the condition must hold before the alert fires (and, unless clearSeconds is set, clears).' }),
    clearSeconds: z.number().int().min(0).max(86_400).nullable().default(null).meta({ ...live, description: 'How long the condition must be gone before the alert clears; blank uses settleSeconds.' }),
    webhookUrl: httpUrlOrBlank.meta({ ...live, secret: 'locked', description: 'POSTed JSON when the alert fires or clears; blank for none.' }),
    homekit: z.boolean().default(false).meta({ ...live, description: 'Show this rule in the Home app as a contact sensor (open while the alert is active).' }),
  })
  .strict()
  .superRefine((a, ctx) => {
    const units: readonly string[] = ALERT_UNITS[a.trigger];
    if (a.unit !== null && !units.includes(a.unit)) ctx.addIssue({ code: 'custom', path: ['unit'], message: `must be ${units.map((u) => `"${u}"`).join(' or ')} for trigger ${a.trigger}` });
    if (a.trigger === 'batterySoc' && (a.threshold < 0 || a.threshold > 100)) ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'must be 0 to 100 (%) for battery SOC' });
  });

export const weatherSettings = z
  .object({
    enabled: z.boolean().default(false).meta(live),
    location: z.string().trim().max(120).default('').meta({ ...live, description: 'Place name shown with the temperature (and looked up when no coordinates are set).' }),
    latitude: z.number().min(-90).max(90).nullable().default(null).meta(live),
    longitude: z.number().min(-180).max(180).nullable().default(null).meta(live),
    refreshMinutes: z.number().int().min(5).max(180).default(10).meta(live),
    forecastUrl: httpUrl.default('https://api.open-meteo.com/v1/forecast').meta({ ...live, description: 'Forecast API base URL (tests and the demo point it at a local fake).' }),
    geocodingUrl: httpUrl.default('https://geocoding-api.open-meteo.com/v1/search').meta({ ...live, description: 'Geocoding API base URL.' }),
  })
  .strict();

/** The bridge's default port: one above homebridge's usual 51826. */
export const HOMEKIT_DEFAULT_PORT = 51827;

/** HomeKit rejects trivial setup codes. */
const TRIVIAL_PINS = new Set(['000-00-000', '111-11-111', '222-22-222', '333-33-333', '444-44-444', '555-55-555', '666-66-666', '777-77-777', '888-88-888', '999-99-999', '123-45-678', '876-54-321']);

export function randomHomekitPin(): string {
  for (;;) {
    const d = Array.from(randomBytes(8), (b) => String(b % 10)).join('');
    const pin = `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5, 8)}`;
    if (!TRIVIAL_PINS.has(pin)) return pin;
  }
}

export const homekitSettings = z
  .object({
    enabled: z.boolean().default(false).meta(restart),
    pin: z
      .string()
      .regex(/^\d{3}-\d{2}-\d{3}$/, 'must look like 123-45-678')
      .refine((p) => !TRIVIAL_PINS.has(p), 'is too simple; HomeKit rejects it')
      .default(randomHomekitPin)
      .meta({ ...restart, secret: 'locked', generated: true, description: 'Pairing code XXX-XX-XXX; generated on first start.' }),
    bridgeName: z.string().trim().min(1).max(64).default('Energy Bridge').meta(restart),
    port: z
      .number()
      .int()
      .min(1024)
      .max(65535)
      .default(HOMEKIT_DEFAULT_PORT)
      .meta({ ...restart, description: 'TCP port of the HomeKit bridge (not 51826, which homebridge usually holds). Seeded from HOMEKIT_PORT.' }),
    bind: z
      .array(z.string().trim().min(1).max(64).refine((v) => isIP(v) !== 0 || /^[A-Za-z0-9._-]+$/.test(v), 'must be an IP address or an interface name'))
      .max(8)
      .default([])
      .meta({ ...restart, description: 'Addresses or interfaces the bridge binds and advertises on; empty for all. Seeded from HOMEKIT_BIND (comma-separated).' }),
  })
  .strict();

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

export const energySettingsSchema = z
  .object({
    general: generalSettings.default(() => generalSettings.parse({})),
    gateway: gatewaySettings.default(() => gatewaySettings.parse({})),
    polling: pollingSettings.default(() => pollingSettings.parse({})),
    history: historySettings.default(() => historySettings.parse({})),
    battery: batterySettings.default(() => batterySettings.parse({})),
    names: namesSettings.default(() => namesSettings.parse({})),
    tariff: tariffSettings.default(() => tariffSettings.parse({})),
    alerts: z
      .array(alertSettings)
      .max(MAX_ALERTS)
      .default([])
      .refine((list) => new Set(list.map((a) => a.id)).size === list.length, 'alert ids must be unique')
      .meta({ ...live, description: 'Alert rules; the array is replaced whole on update.' }),
    weather: weatherSettings.default(() => weatherSettings.parse({})),
    homekit: homekitSettings.default(() => homekitSettings.parse({})),
    smartHome: smartHomeSettings.default(() => smartHomeSettings.parse({})),
    solar: solarSettings.default(() => solarSettings.parse({})),
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
  const str = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);
  return energySettingsSchema.parse({
    general: {
      ...(int(env.SERVER_PORT) ? { serverPort: int(env.SERVER_PORT) } : {}),
      ...(str(env.ALLOWED_HOSTS) ? { allowedHosts: splitHostList(str(env.ALLOWED_HOSTS)!).filter(isHostName) } : {}),
    },
    gateway: { host: env.GATEWAY_HOST?.trim() ?? '', ...(int(env.GATEWAY_PORT) ? { port: int(env.GATEWAY_PORT) } : {}) },
    polling: { ...(int(env.POLL_INTERVAL_MS) ? { intervalMs: Math.max(1000, int(env.POLL_INTERVAL_MS)!) } : {}) },
    weather: {
      ...(str(env.WEATHER_FORECAST_URL) ? { forecastUrl: str(env.WEATHER_FORECAST_URL) } : {}),
      ...(str(env.WEATHER_GEOCODING_URL) ? { geocodingUrl: str(env.WEATHER_GEOCODING_URL) } : {}),
    },
    homekit: homekitSeeds(env, int, str),
    smartHome: str(env.SMART_HOME_AUTH_TOKEN) ? { enabled: true, authToken: str(env.SMART_HOME_AUTH_TOKEN) } : {},
  });
}

/** HOMEKIT_PORT, HOMEKIT_PIN and HOMEKIT_BIND seed the bridge (and any of them enables it). */
function homekitSeeds(env: NodeJS.ProcessEnv, int: (v?: string) => number | undefined, str: (v?: string) => string | undefined) {
  const port = int(env.HOMEKIT_PORT);
  const pin = str(env.HOMEKIT_PIN);
  const bind = str(env.HOMEKIT_BIND)?.split(',').map((b) => b.trim()).filter(Boolean);
  if (port === undefined && pin === undefined && bind === undefined) return {};
  if (env.HOMEKIT_PORT !== undefined && env.HOMEKIT_PORT.trim() !== '' && (port === undefined || port < 1024 || port > 65535)) throw new Error(`HOMEKIT_PORT: must be a port number 1024-65535, got "${env.HOMEKIT_PORT}"`);
  if (pin !== undefined) {
    const checked = homekitSettings.shape.pin.safeParse(pin);
    if (!checked.success) throw new Error(`HOMEKIT_PIN: ${checked.error.issues[0]!.message} (got "${pin.replace(/\d/g, '*')}")`);
  }
  return { enabled: true, ...(port !== undefined ? { port } : {}), ...(pin !== undefined ? { pin } : {}), ...(bind ? { bind } : {}) };
}

export type Applies = 'live' | 'restart';

/** Strips `.default()` wrappers to reach the schema underneath. */
function unwrapDefault(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodDefault) s = s.def.innerType as z.ZodType;
  return s;
}

function appliesOf(schema: z.ZodType): Applies | undefined {
  const meta = schema.meta() as { applies?: Applies } | undefined;
  return meta?.applies;
}

/**
 * Every settings field as a dotted path (`gateway.port`) with its `applies` flag. Objects are
 * walked into; arrays and records (alerts, names.strings) are one field each.
 */
export function settingsFields(schema: z.ZodType = energySettingsSchema, prefix = '', inherited: Applies = 'live'): Map<string, Applies> {
  const out = new Map<string, Applies>();
  const inner = unwrapDefault(schema);
  if (!(inner instanceof z.ZodObject)) {
    out.set(prefix, appliesOf(schema) ?? inherited);
    return out;
  }
  for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    for (const [p, a] of settingsFields(child, path, appliesOf(child) ?? inherited)) out.set(p, a);
  }
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Deep-merges a partial update into the current settings, guided by the schema: objects merge key
 * by key, everything else (arrays such as alerts, records such as names, scalars) is replaced whole.
 * Unknown keys are carried over so that validation can name them.
 */
export function mergeSettings(current: unknown, patch: unknown, schema: z.ZodType = energySettingsSchema): unknown {
  const inner = unwrapDefault(schema);
  if (!(inner instanceof z.ZodObject) || !isPlainObject(patch) || !isPlainObject(current)) return patch;
  const shape = inner.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    out[key] = key in shape && key in current ? mergeSettings(current[key], value, shape[key]!) : value;
  }
  return out;
}

function valueAt(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (isPlainObject(o) ? o[k] : undefined), obj);
}

/** Fields marked `restart` whose value differs between `running` (as started) and `next`. */
export function restartRequired(running: EnergySettings, next: EnergySettings): string[] {
  const out: string[] = [];
  for (const [path, applies] of settingsFields()) {
    if (applies !== 'restart') continue;
    if (JSON.stringify(valueAt(running, path)) !== JSON.stringify(valueAt(next, path))) out.push(path);
  }
  return out;
}

/** Dotted paths of every field whose value differs between `a` and `b`. */
export function changedFields(a: EnergySettings, b: EnergySettings): string[] {
  return [...settingsFields().keys()].filter((path) => JSON.stringify(valueAt(a, path)) !== JSON.stringify(valueAt(b, path)));
}

/** Whether an update touches what the poller's connection or schedule depends on (gateway, polling). */
export function needsReconnect(prev: EnergySettings, next: EnergySettings): boolean {
  return changedFields(prev, next).some((f) => f.startsWith('gateway.'));
}
