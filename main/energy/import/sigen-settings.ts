import { z } from 'zod';
import { PLANT_UNIT } from '../gateway/registers.js';
import { energySettingsSchema, mergeSettings, type EnergySettings } from '../settings/energy-settings.js';
import type { Carried, NotCarried } from './carried.js';
import { mapSigenAlerts, sigenAlertSchema } from './sigen-alerts.js';
import { clockMinutes, convertWindows, hhmm } from './sigen-tariff.js';

/**
 * sigen-home-bridge's `settings.json`, as far as this bridge reads it. Every section is optional
 * and loose (unknown keys are ignored), so a file from an older or newer version still maps what
 * it has; a section that does not match is listed as not carried, with why.
 */
const clock = z.string().refine((v) => clockMinutes(v) !== null, 'must be a time HH:MM');
const rateWindow = z.object({ start: clock, end: clock, rate: z.number().min(0) });
const sections = {
  sigen: z.looseObject({ host: z.string().optional(), port: z.number().int().optional(), unitId: z.number().int().optional() }),
  poll: z.looseObject({
    defaultIntervalMs: z.number().int().optional(),
    reconnectDelayMs: z.number().int().optional(),
    schedule: z.array(z.looseObject({ start: z.string(), end: z.string(), intervalMs: z.number() })).optional(),
  }),
  weather: z.looseObject({
    enabled: z.boolean().optional(),
    latitude: z.number().nullable().optional(),
    longitude: z.number().nullable().optional(),
    units: z.enum(['celsius', 'fahrenheit']).optional(),
    refreshMs: z.number().int().optional(),
  }),
  battery: z.looseObject({ capacityKwh: z.number().nullable().optional(), reserveSoc: z.number().nullable().optional(), chargeUnit: z.string().optional() }),
  tariff: z.looseObject({
    showOnDashboard: z.boolean().optional(),
    costMode: z.string().optional(),
    currency: z.string().optional(),
    importRate: z.number().min(0).default(0),
    exportRate: z.number().min(0).default(0),
    importWindows: z.array(rateWindow).default([]),
    exportWindows: z.array(rateWindow).default([]),
    supplyChargePerDay: z.number().min(0).default(0),
    zeroDrawCredit: z.looseObject({ enabled: z.boolean(), start: clock, end: clock, perDay: z.number().min(0) }).optional(),
    superExportCredit: z.looseObject({ enabled: z.boolean(), start: clock, end: clock, capKwh: z.number().min(0), rate: z.number().min(0) }).optional(),
  }),
  history: z.looseObject({ retentionDays: z.number().optional() }),
  alerts: z.looseObject({ items: z.array(sigenAlertSchema).default([]) }),
  homekit: z.looseObject({
    name: z.string().optional(),
    pin: z.string().optional(),
    port: z.number().int().optional(),
    manufacturer: z.string().optional(),
    model: z.string().optional(),
    powerUnit: z.string().optional(),
    bind: z.string().nullable().optional(),
    labels: z.record(z.string(), z.string()).optional(),
  }),
  server: z.looseObject({ port: z.number().optional() }),
  google: z.looseObject({ authToken: z.string().optional(), labels: z.record(z.string(), z.unknown()).optional(), powerUnit: z.string().optional(), batteryDisplay: z.string().optional() }),
  appearance: z.looseObject({}),
  security: z.looseObject({ passcode: z.object({ hash: z.string().regex(/^[0-9a-f]+$/i), salt: z.string().min(1) }).nullable().optional() }),
};
type Sections = { [K in keyof typeof sections]?: z.output<(typeof sections)[K]> };

export interface SettingsMapping {
  /** The settings as they will be here (validated). */
  next: EnergySettings;
  /** Top-level sections of ours that the import changes. */
  changed: string[];
  carried: Carried[];
  notCarried: NotCarried[];
  /** Its passcode record (scrypt, salt text, hex hash), or null when it had none. */
  passcode: { salt: string; hash: string } | null;
}

/** Reads the sections of its settings one by one; a section that does not match is reported. */
export function readSigenSettings(raw: unknown): { sections: Sections; notCarried: NotCarried[] } {
  const notCarried: NotCarried[] = [];
  const out: Sections = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { sections: out, notCarried: [{ setting: 'settings.json', reason: 'not a JSON object' }] };
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(sections) as Array<keyof typeof sections>) {
    if (obj[key] === undefined) continue;
    const parsed = sections[key].safeParse(obj[key]);
    if (parsed.success) (out as Record<string, unknown>)[key] = parsed.data;
    else {
      const issue = parsed.error.issues[0]!;
      notCarried.push({ setting: [key, ...issue.path].join('.'), reason: `not understood (${issue.message}); nothing of "${key}" was carried` });
    }
  }
  return { sections: out, notCarried };
}

/**
 * Maps its settings onto ours, starting from `current`: every setting with an equal here is carried
 * (listed in `carried`), the others are listed in `notCarried` with the reason. A carried section
 * this bridge refuses (a value outside its limits) is left out and listed with the refusal.
 */
export function mapSigenSettings(raw: unknown, current: EnergySettings): SettingsMapping {
  const { sections: s, notCarried } = readSigenSettings(raw);
  const carried: Carried[] = [];
  const patch: Record<string, Record<string, unknown> | unknown[]> = {};
  const put = (section: string, key: string, value: unknown, from: string) => {
    const target = (patch[section] ??= {}) as Record<string, unknown>;
    target[key] = value;
    carried.push({ from, to: `${section}.${key}` });
  };
  const drop = (setting: string, reason: string) => notCarried.push({ setting, reason });

  if (s.sigen) {
    if (s.sigen.host !== undefined) put('gateway', 'host', s.sigen.host.trim(), 'sigen.host');
    if (s.sigen.port !== undefined) put('gateway', 'port', s.sigen.port, 'sigen.port');
    if (s.sigen.unitId !== undefined && s.sigen.unitId !== PLANT_UNIT) drop('sigen.unitId', `this bridge reads the plant at Modbus unit ${PLANT_UNIT}, the gateway's plant address; it was set to ${s.sigen.unitId}`);
    else if (s.sigen.unitId !== undefined) carried.push({ from: 'sigen.unitId', to: `the plant unit (${PLANT_UNIT} here too)` });
  }
  if (s.poll) {
    if (s.poll.defaultIntervalMs !== undefined) put('polling', 'intervalMs', s.poll.defaultIntervalMs, 'poll.defaultIntervalMs');
    if (s.poll.reconnectDelayMs !== undefined) put('polling', 'retryDelayMs', s.poll.reconnectDelayMs, 'poll.reconnectDelayMs');
    for (const w of s.poll.schedule ?? []) drop('poll.schedule', `the ${w.start}–${w.end} poll every ${w.intervalMs / 1000} s: this bridge polls at one interval all day`);
  }
  if (s.weather) {
    const w = s.weather;
    if (w.enabled !== undefined) put('weather', 'enabled', w.enabled, 'weather.enabled');
    if (w.latitude !== undefined) put('weather', 'latitude', w.latitude, 'weather.latitude');
    if (w.longitude !== undefined) put('weather', 'longitude', w.longitude, 'weather.longitude');
    if (w.units !== undefined) put('general', 'temperatureUnit', w.units, 'weather.units');
    if (w.refreshMs !== undefined) {
      const minutes = Math.round(w.refreshMs / 60_000);
      if (minutes >= 5 && minutes <= 180) put('weather', 'refreshMinutes', minutes, 'weather.refreshMs');
      else drop('weather.refreshMs', `${w.refreshMs / 60_000} minutes: this bridge refreshes the weather every 5 to 180 minutes (kept ${current.weather.refreshMinutes})`);
    }
    if (w.enabled && (w.latitude === null || w.longitude === null || w.latitude === undefined || w.longitude === undefined)) {
      drop('weather (place)', 'it found your place from your internet address; this bridge never does that: type the place in Settings → Weather');
    }
    // It keeps coordinates only, no place name: a name typed here before ("Sydney") would now label
    // another place's weather. The name is cleared (the weather then shows the coordinates) and said so.
    const movesPlace = typeof w.latitude === 'number' && typeof w.longitude === 'number' && (w.latitude !== current.weather.latitude || w.longitude !== current.weather.longitude);
    if (movesPlace && current.weather.location.trim()) {
      (patch.weather as Record<string, unknown>).location = '';
      drop(
        'weather (place name)',
        `it keeps coordinates only (${w.latitude}, ${w.longitude}), not a place name: "${current.weather.location.trim()}" was cleared here, so the weather shows those coordinates until you type the place's name in Settings → Weather`,
      );
    }
  }
  if (s.battery) {
    if (s.battery.capacityKwh !== undefined) put('battery', 'capacityKwh', s.battery.capacityKwh, 'battery.capacityKwh');
    if (s.battery.reserveSoc !== undefined) put('battery', 'reserveSoc', s.battery.reserveSoc, 'battery.reserveSoc');
    if (s.battery.chargeUnit === 'energy') drop('battery.chargeUnit', 'the charge shown in kWh: this bridge shows it as a percentage, with the kWh remaining beside it');
  }
  if (s.tariff) mapTariff(s.tariff, put, drop);
  if (s.history?.retentionDays !== undefined) put('history', 'retentionDays', s.history.retentionDays, 'history.retentionDays');
  if (s.alerts) {
    const alerts = mapSigenAlerts(s.alerts.items);
    if (alerts.rules.length || s.alerts.items.length === 0) {
      patch.alerts = alerts.rules;
      carried.push(...alerts.carried);
    }
    notCarried.push(...alerts.notCarried);
  }
  if (s.homekit) {
    const h = s.homekit;
    put('homekit', 'enabled', true, 'homekit (its bridge always ran)');
    if (h.name !== undefined) put('homekit', 'bridgeName', h.name, 'homekit.name');
    if (h.pin !== undefined) put('homekit', 'pin', h.pin, 'homekit.pin');
    if (h.port !== undefined) put('homekit', 'port', h.port, 'homekit.port');
    if (h.bind !== undefined) put('homekit', 'bind', (h.bind ?? '').split(',').map((b) => b.trim()).filter(Boolean), 'homekit.bind');
    if (h.manufacturer !== undefined || h.model !== undefined) drop('homekit.manufacturer, homekit.model', 'the Home app shows this bridge’s own maker and model');
    if (h.powerUnit !== undefined) drop('homekit.powerUnit', 'this bridge’s power sensors always read in watts');
    if (h.labels && Object.keys(h.labels).length) drop('homekit.labels', `its accessory names (${Object.values(h.labels).join(', ')}): this bridge names its accessories itself; rename them in the Home app`);
  }
  if (s.server?.port !== undefined && s.server.port !== current.general.serverPort) {
    drop('server.port', `its web page was on port ${s.server.port}; this bridge keeps its own port ${current.general.serverPort} (SERVER_PORT) so the page you are on keeps working`);
  }
  if (s.google) {
    if (s.google.authToken) {
      put('smartHome', 'enabled', true, 'google (its smart-home fulfillment)');
      put('smartHome', 'authToken', s.google.authToken, 'google.authToken');
    }
    if (s.google.labels || s.google.powerUnit || s.google.batteryDisplay) drop('google.labels, google.powerUnit, google.batteryDisplay', 'this bridge names its smart-home devices and their units itself');
  }
  if (s.appearance && Object.keys(s.appearance).length) drop('appearance', 'its dashboard title, scale, power unit and colours: this bridge’s pages have their own look and follow the system’s light or dark theme');

  const passcode = s.security?.passcode ?? null;

  // Validate section by section: a section this bridge refuses stays as it was here, named.
  let next = current;
  const changed: string[] = [];
  for (const [section, value] of Object.entries(patch)) {
    const candidate = mergeSettings(next, { [section]: value });
    const parsed = energySettingsSchema.safeParse(candidate);
    if (parsed.success) {
      next = parsed.data;
      changed.push(section);
    } else {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.');
      for (let i = carried.length - 1; i >= 0; i--) if (carried[i]!.to.startsWith(`${section}.`) || (section === 'alerts' && carried[i]!.to.startsWith('alerts'))) carried.splice(i, 1);
      drop(section, `refused here (${field}: ${issue.message}); this section was left as it was`);
    }
  }
  return { next, changed, carried, notCarried, passcode };
}

type Put = (section: string, key: string, value: unknown, from: string) => void;
type Drop = (setting: string, reason: string) => void;

function mapTariff(t: NonNullable<Sections['tariff']>, put: Put, drop: Drop): void {
  if (t.currency) put('general', 'currency', t.currency.trim().toUpperCase(), 'tariff.currency');
  put('tariff', 'importRate', t.importRate, 'tariff.importRate');
  put('tariff', 'feedInRate', t.exportRate, 'tariff.exportRate');
  put('tariff', 'dailySupplyCharge', t.supplyChargePerDay, 'tariff.supplyChargePerDay');
  if (t.importWindows.length || t.exportWindows.length) {
    put('tariff', 'windows', convertWindows({ importWindows: t.importWindows, exportWindows: t.exportWindows, importRate: t.importRate }), 'tariff.importWindows, tariff.exportWindows');
  } else put('tariff', 'windows', [], 'tariff.importWindows, tariff.exportWindows (none)');
  const pad = (v: string) => hhmm(clockMinutes(v)!);
  const sameDay = (w: { start: string; end: string }) => clockMinutes(w.end)! > clockMinutes(w.start)!;
  const se = t.superExportCredit;
  if (se) {
    if (sameDay(se)) put('tariff', 'superExport', { enabled: se.enabled, rate: se.rate, start: pad(se.start), end: pad(se.end), capKwh: se.capKwh }, 'tariff.superExportCredit');
    else drop('tariff.superExportCredit', `its ${se.start}–${se.end} window runs past midnight; this bridge's credit windows run within one day`);
  }
  const zd = t.zeroDrawCredit;
  if (zd) {
    // Its zero-draw tolerance is a fixed 0.05 kWh: this bridge's default, kept.
    if (sameDay(zd)) put('tariff', 'zeroDraw', { enabled: zd.enabled, credit: zd.perDay, start: pad(zd.start), end: pad(zd.end), toleranceKwh: 0.05 }, 'tariff.zeroDrawCredit');
    else drop('tariff.zeroDrawCredit', `its ${zd.start}–${zd.end} window runs past midnight; this bridge's credit windows run within one day`);
  }
  if (t.costMode === 'perHour') drop('tariff.costMode', 'the cost shown per hour: this bridge shows the cost so far today and the current rate per hour side by side');
  if (t.showOnDashboard === false) drop('tariff.showOnDashboard', 'hidden cost panel: this bridge shows the cost whenever a tariff is set');
}
