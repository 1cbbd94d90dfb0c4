/**
 * Plain words for the settings form: each field's label and unit, and a message in everyday
 * language for a value the bridge refuses ("Poll interval must be at least 1 second"), built from
 * the field's schema and the value sent, not from the validator's text.
 */
import { fieldInfo, humanize, type JsonSchema } from './schema.js';

export interface Unit {
  /** Shown after the control ("s", "kWh", "%"). */
  symbol: string;
  /** Singular and plural words for messages ("second", "seconds"). */
  words?: [string, string];
  /** The stored value is this many times the shown one (ms shown as seconds: 1000). */
  factor?: number;
}

const SECONDS: Unit = { symbol: 's', words: ['second', 'seconds'], factor: 1000 };
const KWH: Unit = { symbol: 'kWh' };
const PER_KWH: Unit = { symbol: 'per kWh' };
const PER_DAY: Unit = { symbol: 'per day' };

/** Units by the field's last name (`polling.intervalMs` → intervalMs). */
const UNITS: Record<string, Unit> = {
  intervalMs: SECONDS,
  retryDelayMs: SECONDS,
  timeoutMs: SECONDS,
  retentionDays: { symbol: 'days', words: ['day', 'days'] },
  minuteRetentionDays: { symbol: 'days', words: ['day', 'days'] },
  capacityKwh: KWH,
  capKwh: KWH,
  toleranceKwh: KWH,
  reserveSoc: { symbol: '%' },
  importRate: PER_KWH,
  feedInRate: PER_KWH,
  rate: PER_KWH,
  dailySupplyCharge: PER_DAY,
  credit: PER_DAY,
  refreshMinutes: { symbol: 'min', words: ['minute', 'minutes'] },
  latitude: { symbol: '°' },
  longitude: { symbol: '°' },
  eventStreamMaxClients: { symbol: 'dashboards' },
  ratedKwp: { symbol: 'kWp' },
};

/** One entry of a list, by the list's path ("tariff.windows.1" → "Time-of-use window 2"). */
const ITEM_LABELS: Record<string, string> = {
  'tariff.windows': 'Time-of-use window',
  alerts: 'Alert rule',
  'general.allowedHosts': 'Host name',
};

/** Units a key's ending names ("probeTimeoutMs" is in milliseconds, shown in seconds). */
const BY_ENDING: Array<[RegExp, Unit]> = [
  [/Ms$/, SECONDS],
  [/Seconds$/, { symbol: 's', words: ['second', 'seconds'] }],
  [/Minutes$/, { symbol: 'min', words: ['minute', 'minutes'] }],
  [/Days$/, { symbol: 'days', words: ['day', 'days'] }],
  [/Kwh$/, KWH],
];

/** The unit shown beside a number: by the field's name, else by its key's ending (…Ms, …Seconds). */
export function unitOf(path: string): Unit | undefined {
  const key = path.split('.').pop() ?? '';
  return UNITS[key] ?? BY_ENDING.find(([re]) => re.test(key))?.[1];
}

/** A field of a list editor or picker as the server's schema names it (plain.ts `itemField`, `ownField`). */
export interface FieldWords {
  label: string;
  hint?: string;
  /** Shown after the control ("s", "per kWh"). */
  unit?: string;
}

const hintOf = (node: JsonSchema | undefined) => node?.description ?? node?.anyOf?.find((x) => x.description)?.description;

/** A setting as the schema names it (a picker, a setup step): `schema` is its node. */
export function ownField(path: string, schema: JsonSchema | undefined): FieldWords {
  return { label: labelOf(path, schema), hint: hintOf(schema), unit: unitOf(path)?.symbol };
}

/** Sub-field `key` of a list's items as the schema names it: `list` is the list's node. */
export function itemField(list: JsonSchema | undefined, key: string): FieldWords {
  const node = list ? fieldInfo(list).schema.items?.properties?.[key] : undefined;
  return { label: labelOf(key, node), hint: hintOf(node), unit: unitOf(key)?.symbol };
}

/**
 * The label of a field: the server schema's label (the one source: `schema` is the field's node of
 * GET /api/settings/schema; no label lives here too), else the plain name of a list item or of the
 * key; without the unit shown beside it.
 */
export function labelOf(path: string, schema?: JsonSchema): string {
  const fromSchema = schema?.label ?? schema?.anyOf?.find((x) => x.label)?.label;
  if (fromSchema) return fromSchema;
  const item = /^(.*)\.(\d+)$/.exec(path);
  if (item && ITEM_LABELS[item[1]!]) return `${ITEM_LABELS[item[1]!]} ${Number(item[2]) + 1}`;
  const slot = /^names\.smartLoads\.(\d+)$/.exec(path);
  if (slot) return `The name of smart load ${slot[1]}`;
  const str = /^names\.strings\.[^.]+\.(\d+)$/.exec(path);
  if (str) return `The name of PV string ${str[1]}`;
  const key = path.split('.').pop() ?? path;
  return humanize(key.replace(/(Ms|Kwh|Minutes|Days)$/, '')) || humanize(key);
}

/** A number in the shown unit, for messages: 1000 ms → "1 second", 0.2 s → "0.2 seconds", 65535. */
export function amount(stored: number, unit: Unit | undefined): string {
  const shown = stored / (unit?.factor ?? 1);
  const n = Number.isInteger(shown) ? String(shown) : String(Math.round(shown * 10_000) / 10_000);
  if (!unit) return n;
  if (unit.words) return `${n} ${shown === 1 ? unit.words[0] : unit.words[1]}`;
  return unit.symbol === '%' || unit.symbol === '°' ? `${n}${unit.symbol}` : `${n} ${unit.symbol}`;
}

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * The plain-language message for a refused value. `schema` is the field's node, `value` what was
 * sent (for numbers: the stored value, or the text as typed when it was not a number);
 * `serverMessage` is only a hint for what the schema cannot tell (URL, host name, unknown field).
 */
export function plainMessage(path: string, schema: JsonSchema | undefined, value: unknown, serverMessage = ''): string {
  const label = labelOf(path, schema);
  const unit = unitOf(path);
  if (/unknown field/.test(serverMessage)) return `${label} is not a setting this bridge knows; reload the page.`;
  if (!schema) return `${label}: ${serverMessage || 'this value is not accepted'}.`;
  const info = fieldInfo(schema);
  const s = info.schema;
  switch (info.kind) {
    case 'integer':
    case 'number': {
      if (isBlank(value)) return info.nullable ? `${label}: leave it blank or enter a number.` : `${label} is required.`;
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${label} must be a number${unit && unit.symbol !== '%' ? ` (in ${unit.words?.[1] ?? unit.symbol})` : ''}.`;
      if (typeof s.minimum === 'number' && value < s.minimum) return `${label} must be at least ${amount(s.minimum, unit)}.`;
      if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return `${label} must be more than ${amount(s.exclusiveMinimum, unit)}.`;
      if (typeof s.maximum === 'number' && value > s.maximum) return `${label} must be at most ${amount(s.maximum, unit)}.`;
      if (info.kind === 'integer' && !Number.isInteger(value)) return unit?.factor ? `${label} must be a whole number of milliseconds (${amount(Math.round(value), unit)} is the nearest).` : `${label} must be a whole number.`;
      break;
    }
    case 'string': {
      const text = typeof value === 'string' ? value.trim() : '';
      if (typeof s.minLength === 'number' && text.length < s.minLength) return `${label} cannot be empty.`;
      if (typeof s.maxLength === 'number' && text.length > s.maxLength) return `${label} can be at most ${s.maxLength} characters.`;
      const misfit = typeof s.pattern === 'string' && !new RegExp(s.pattern).test(typeof value === 'string' ? value : '');
      if (misfit && s.pattern!.includes('2[0-3]):[0-5]')) return `${label} must be a time such as 07:30.`;
      if (misfit && s.pattern === '^[A-Z]{3}$') return `${label} must be a three-letter currency code such as AUD.`;
      if (misfit && s.pattern!.includes('\\d{3}-\\d{2}-\\d{3}')) return `${label} must look like 123-45-678.`;
      if (/http\(s\) URL/.test(serverMessage)) return `${label} must be a web address starting with http:// or https://.`;
      if (/time zone|timezone/i.test(serverMessage)) return `${label} must be a time zone such as Australia/Sydney.`;
      break;
    }
    case 'enum':
      return `${label} must be one of: ${s.enum!.join(', ')}.`;
    case 'boolean':
      return `${label} must be on or off.`;
    default:
      break;
  }
  if (/host name/.test(serverMessage)) return `${label}: each entry must be a host name such as pc.home.lan.`;
  if (/too big|at most|<=/i.test(serverMessage) && Array.isArray(value)) return `${label}: too many entries.`;
  if (/too small|>=|at least/i.test(serverMessage) && typeof value === 'string') return `${label} cannot be empty.`;
  if (/too long|<=\d+ characters/i.test(serverMessage)) return `${label} is too long.`;
  // Anything else: the bridge's own words, with the field's name in front.
  return `${label}: ${serverMessage.replace(/^[^:]{1,80}: /, '') || 'this value is not accepted'}.`.replace(/\.\.$/, '.');
}
