import { z } from 'zod';
import { coreSections, energyCoreGroups } from '../core-settings.js';
import { energyFeatures } from '../features.js';
import { envSeeds, type SettingsSection } from '../settings-section.js';

/**
 * The energy bridge's settings, composed: the core sections every feature may read
 * (core-settings.ts), then the sections the features own (each in its folder's settings.ts) in the
 * order of the one feature list (features.ts). One schema validates input, types the code and
 * documents the API; see settings-section.ts for the meta each field carries. Only the service
 * imports this module (a feature sees its own sections and the core through its context).
 */
type Sections = (typeof energyCoreGroups)[number]['settings'][number] | NonNullable<(typeof energyFeatures)[number]['settings']>[number];
type Shape = { [S in Sections as S['key']]: S['schema'] };

/** Who owns each settings group, in order: the core groups, then the features (the settings page's sections follow these names). */
export const settingsOwners: ReadonlyArray<{ readonly name: string; readonly settings?: readonly SettingsSection[] }> = [...energyCoreGroups, ...energyFeatures];

export const settingsSections: readonly SettingsSection[] = [...coreSections, ...energyFeatures.flatMap((f): readonly SettingsSection[] => f.settings ?? [])];

export const energySettingsSchema = z.object(Object.fromEntries(settingsSections.map((s) => [s.key, s.schema])) as Shape).strict();

export type EnergySettings = z.output<typeof energySettingsSchema>;

/** Settings seeded from the environment: used on first start and by a settings reset. */
export function energySeedsFromEnv(env: NodeJS.ProcessEnv): EnergySettings {
  const read = envSeeds(env);
  return energySettingsSchema.parse(Object.fromEntries(settingsSections.flatMap((s) => (s.seed ? [[s.key, s.seed(read)]] : []))));
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
