/** Reading the settings JSON Schema (GET /api/settings/schema) to render a form. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: Array<string | number>;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  description?: string;
  /** The field's name in words (the server's `.meta({ label })`): what the page shows. */
  label?: string;
  /** An enum's values in words (the server's `.meta({ options })`): what a choice list shows. */
  options?: Record<string, string>;
  /** Alert triggers: the units a level may be given in, per trigger (the first is the usual one). */
  units?: Record<string, string[]>;
  /** The unit the stored number is in, when the schema names one. */
  unit?: string;
  default?: unknown;
  applies?: 'live' | 'restart';
  secret?: 'locked' | 'hidden';
}

export type FieldKind = 'boolean' | 'enum' | 'integer' | 'number' | 'string' | 'object' | 'json';

export interface FieldInfo {
  kind: FieldKind;
  nullable: boolean;
  schema: JsonSchema;
}

/** Unwraps `anyOf: [X, {type: null}]` and names the control a field needs. */
export function fieldInfo(s: JsonSchema): FieldInfo {
  let schema = s;
  let nullable = false;
  if (s.anyOf) {
    const nonNull = s.anyOf.filter((x) => x.type !== 'null');
    nullable = nonNull.length < s.anyOf.length;
    if (nonNull.length === 1) schema = { ...nonNull[0], description: s.description, label: s.label ?? nonNull[0]!.label, applies: s.applies, secret: s.secret, default: s.default };
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null')) nullable = true;
  const t = types.find((x) => x !== 'null');
  if (schema.enum) return { kind: 'enum', nullable, schema };
  if (t === 'boolean') return { kind: 'boolean', nullable, schema };
  if (t === 'integer') return { kind: 'integer', nullable, schema };
  if (t === 'number') return { kind: 'number', nullable, schema };
  if (t === 'string') return { kind: 'string', nullable, schema };
  if (t === 'object' && schema.properties) return { kind: 'object', nullable, schema };
  return { kind: 'json', nullable, schema };
}

const WORDS: Record<string, string> = {
  Ms: '(ms)',
  Kwh: '(kWh)',
  Soc: 'SOC',
  Url: 'URL',
  Pin: 'PIN',
  Id: 'ID',
  Homekit: 'HomeKit',
};

const TITLES: Record<string, string> = {
  general: 'General',
  gateway: 'Gateway',
  polling: 'Polling',
  history: 'History',
  battery: 'Battery',
  names: 'Names',
  tariff: 'Tariff',
  alerts: 'Alerts',
  weather: 'Weather',
  homekit: 'HomeKit',
  smartHome: 'Smart-home assistant',
  mqtt: 'MQTT (Home Assistant)',
  metrics: 'Metrics (Prometheus)',
  solar: 'Solar panels',
  ratedKwp: 'Rated size (kWp)',
};

/** "retryDelayMs" → "Retry delay (ms)". */
export function humanize(key: string): string {
  if (TITLES[key]) return TITLES[key];
  const parts = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(' ');
  const words = parts.map((p, i) => WORDS[p] ?? (i === 0 ? p[0]!.toUpperCase() + p.slice(1) : p.toLowerCase()));
  return words.join(' ').replace('SOC', 'SOC');
}

/** Whether any field under a schema node applies only after a restart. */
export function appliesOnRestart(s: JsonSchema): boolean {
  return s.applies === 'restart';
}

/** The server prefixes messages with the field path; the form shows them next to the field already. */
export function fieldMessage(message: string, field: string): string {
  return message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
}
