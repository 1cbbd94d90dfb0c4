import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Db } from '../core/sqlite.js';
import { parseInput } from '../core/validate.js';
import { brokerOf } from '../integrations/mqtt/settings.js';
import { recordingCoreGroups } from './core-settings.js';
import { recordingFeatures } from './features/index.js';
import { SECRET_MASK, type SettingDef, type ValuesOf } from './features/setting-def.js';

export { SECRET_MASK, type SettingDef };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Defs = UnionToIntersection<(typeof recordingCoreGroups)[number]['settings'] | NonNullable<(typeof recordingFeatures)[number]['settings']>>;

/** Who owns each group of settings, in order: the core (the sync), then the features (the settings page's sections follow these names). */
export const settingOwners: ReadonlyArray<{ readonly name: string; readonly settings?: Record<string, SettingDef> }> = [...recordingCoreGroups, ...recordingFeatures];

/**
 * The one schema of the settings: each key's validator, default, env seed, secrecy, when it applies,
 * its label and its hint, owned by the feature folders and composed in the order of the one
 * feature list (features/index.ts).
 */
export const settingDefs = Object.assign({}, ...settingOwners.map((f) => f.settings ?? {})) as Defs;

export type SettingKey = keyof Defs;
export type Settings = ValuesOf<Defs>;
export type SettingSource = 'stored' | 'env' | 'default';

/**
 * Each secret and the settings naming where it is sent. A secret is bound to the destinations
 * (scheme, host, port) these settings held when it was given; it is attached only to requests for
 * them, and changing one of them without giving the secret again clears the secret.
 */
export const SECRET_DESTINATIONS = Object.assign({}, ...recordingFeatures.map((f) => f.secretDestinations ?? {})) as {
  [K in SettingKey as Defs[K] extends { secret: true } ? K : never]: readonly SettingKey[];
};
export type SecretKey = keyof typeof SECRET_DESTINATIONS;
const secretKeys = Object.keys(SECRET_DESTINATIONS) as SecretKey[];

/** The destination a URL setting names: its origin (scheme, host, port), '' when blank or not a URL. */
export function destinationOf(url: string): string {
  if (!url) return '';
  try {
    const origin = new URL(url).origin;
    // mqtt:// and mqtts:// have no web origin: their broker (scheme, host, port) is the destination.
    return origin === 'null' ? brokerOf(url) : origin;
  } catch {
    return '';
  }
}

/** Where a secret's binding is kept (a settings row the settings schema does not list, so never shown). */
const bindingKey = (k: SecretKey) => `secret_destination:${k}`;

/** The settings naming where a secret goes (media server, cloud, broker). */
const destinationKeys = [...new Set(Object.values(SECRET_DESTINATIONS).flat())] as SettingKey[];
/** Where the destination the owner last set for such a setting is kept (never shown). */
const ownerSetKey = (k: SettingKey) => `owner_destination:${k}`;

const keys = Object.keys(settingDefs) as SettingKey[];

/**
 * The environment as the settings read it: every variable a setting names as its seed (`env` in
 * its definition: MEDIA_ROOT, MQTT_URL, METRICS_ENABLED, ALLOWED_HOSTS, …), and nothing else. The
 * one place the recording sync picks its seeds from the process environment.
 */
export function settingSeedsFrom(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const k of keys) {
    const name = (settingDefs[k] as SettingDef).env;
    if (name && env[name] !== undefined) out[name] = env[name];
  }
  return out;
}

/** Body of `PATCH /api/settings`: any subset of keys; `null` removes the stored value (back to env/default). */
export const settingsPatchSchema = z
  .object(Object.fromEntries(keys.map((k) => [k, (settingDefs[k].schema as z.ZodType).nullable().optional().meta({ label: settingDefs[k].label })])))
  .strict();

export interface SettingsView {
  settings: Settings;
  sources: Record<SettingKey, SettingSource>;
  tz: string;
  detector_config: { path: string; source: 'user' | 'bundled' };
}

/** The answer of a patch: the view, and the secrets the patch cleared because their destination changed. */
export interface PatchResult extends SettingsView {
  cleared: SecretKey[];
  message?: string;
}

export interface RecordingSettings {
  /** Effective values (stored → env → default), secrets in clear: for the service's own use. */
  get(): Settings;
  /** What `GET /api/settings` shows: secrets masked, where each value comes from. */
  view(): SettingsView;
  /**
   * Validates a patch (400 naming the field), stores it, notifies listeners of changed keys. A
   * destination changed without its secret in the same patch clears that secret (named in `cleared`).
   */
  patch(body: unknown, now: number, by?: { owner?: boolean }): PatchResult;
  /**
   * Whether the destination `key` names now is one the owner set (from the PC or with a session;
   * the environment and the defaults are the owner's too). A secret read from the PC (the media
   * server's token) is sent only to such a destination.
   */
  ownerSet(key: SettingKey): boolean;
  /**
   * The secret to attach to a request for `url`: the stored secret when `url`'s origin is one it was
   * given for, else '' (never sent elsewhere).
   */
  secretFor(key: SecretKey, url: string): string;
  onChange(listener: (changed: SettingKey[], next: Settings) => void): () => void;
}

export interface SettingsContext {
  env: Record<string, string | undefined>;
  tz: string;
  /** Folder holding a user's `detector.ini`; the bundled default is used otherwise. */
  configDir: string;
  bundledDetectorIni: string;
}

export function createRecordingSettings(db: Db, ctx: SettingsContext): RecordingSettings {
  const selectAll = db.prepare('SELECT key, value_json FROM settings');
  const upsert = db.prepare(
    'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
  );
  const del = db.prepare('DELETE FROM settings WHERE key = ?');
  const selectOne = db.prepare('SELECT value_json FROM settings WHERE key = ?');
  const listeners = new Set<(changed: SettingKey[], next: Settings) => void>();

  const stored = (): Partial<Record<SettingKey, unknown>> => {
    const out: Partial<Record<SettingKey, unknown>> = {};
    for (const row of selectAll.all() as Array<{ key: string; value_json: string }>) {
      if (!(row.key in settingDefs)) continue;
      const def = settingDefs[row.key as SettingKey] as SettingDef;
      const value: unknown = JSON.parse(row.value_json);
      // A value that no longer validates (schema tightened) falls back rather than breaking the service.
      if (def.schema.safeParse(value).success) out[row.key as SettingKey] = value;
    }
    return out;
  };

  const resolve = () => {
    const s = stored();
    const values = {} as Record<SettingKey, unknown>;
    const sources = {} as Record<SettingKey, SettingSource>;
    for (const k of keys) {
      const def = settingDefs[k] as SettingDef;
      const envValue = def.env ? ctx.env[def.env] : undefined;
      if (s[k] !== undefined) {
        values[k] = s[k];
        sources[k] = 'stored';
      } else if (envValue !== undefined && envValue !== '' && def.schema.safeParse(envValue).success) {
        values[k] = envValue;
        sources[k] = 'env';
      } else {
        values[k] = def.default;
        sources[k] = 'default';
      }
    }
    return { values: values as Settings, sources };
  };

  const destinationsNow = (k: SecretKey, values: Settings): string[] => SECRET_DESTINATIONS[k].map((d) => destinationOf(String(values[d])));
  const binding = (k: SecretKey): string[] | null => {
    const row = selectOne.get(bindingKey(k)) as { value_json: string } | undefined;
    if (!row) return null;
    const v: unknown = JSON.parse(row.value_json);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
  };
  const sameDestinations = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

  const ownerDestination = (k: SettingKey): string | null => {
    const row = selectOne.get(ownerSetKey(k)) as { value_json: string } | undefined;
    const v: unknown = row ? JSON.parse(row.value_json) : null;
    return typeof v === 'string' ? v : null;
  };
  const recordOwnerDestination = (k: SettingKey, values: Settings, now: number) => upsert.run(ownerSetKey(k), JSON.stringify(destinationOf(String(values[k]))), now);

  // Migration: a secret stored before secrets were bound is bound to the destination stored now;
  // a destination stored before the owner's were told apart is taken as the owner's (once).
  db.transaction(() => {
    const { values, sources } = resolve();
    for (const k of secretKeys) {
      if (sources[k] === 'stored' && values[k] && binding(k) === null) upsert.run(bindingKey(k), JSON.stringify(destinationsNow(k, values)), Date.now());
    }
    for (const k of destinationKeys) if (ownerDestination(k) === null) recordOwnerDestination(k, values, Date.now());
  })();

  const view = (): SettingsView => {
    const { values, sources } = resolve();
    const masked = { ...values } as Record<SettingKey, unknown>;
    for (const k of keys) if ((settingDefs[k] as SettingDef).secret && masked[k]) masked[k] = SECRET_MASK;
    const userIni = path.join(ctx.configDir, 'detector.ini');
    const detector_config = fs.existsSync(userIni)
      ? { path: userIni, source: 'user' as const }
      : { path: ctx.bundledDetectorIni, source: 'bundled' as const };
    return { settings: masked as Settings, sources, tz: ctx.tz, detector_config };
  };

  return {
    get: () => resolve().values,
    view,
    patch(body, now, by = {}) {
      const parsed = parseInput(settingsPatchSchema, body ?? {}, 'body') as Partial<Record<SettingKey, unknown>>;
      const changed: SettingKey[] = [];
      const cleared: SecretKey[] = [];
      const before = resolve().values;
      db.transaction(() => {
        for (const k of keys) {
          if (!(k in parsed)) continue;
          const v = parsed[k];
          if (v === undefined) continue;
          if ((settingDefs[k] as SettingDef).secret && v === SECRET_MASK) continue;
          if (v === null) del.run(k);
          else upsert.run(k, JSON.stringify(v), now);
        }
        // Bind each secret given in this patch to the destinations now set; clear the others whose destination moved.
        const values = resolve().values;
        if (by.owner) for (const k of destinationKeys) if (parsed[k] !== undefined) recordOwnerDestination(k, values, now);
        for (const k of secretKeys) {
          const given = parsed[k] !== undefined && parsed[k] !== SECRET_MASK;
          const dest = destinationsNow(k, values);
          if (!values[k]) del.run(bindingKey(k));
          else if (given) upsert.run(bindingKey(k), JSON.stringify(dest), now);
          else if (!sameDestinations(binding(k) ?? [], dest)) {
            del.run(k);
            del.run(bindingKey(k));
            cleared.push(k);
          }
        }
      })();
      const after = resolve().values;
      for (const k of keys) if (before[k] !== after[k]) changed.push(k);
      if (changed.length) for (const l of listeners) l(changed, after);
      const message = cleared.length
        ? `${sentenceList(cleared.map((k) => settingDefs[k].label))} ${cleared.length === 1 ? 'was' : 'were'} cleared: a secret is only sent to the address it was given for, and that address changed. Enter ${cleared.length === 1 ? 'it' : 'them'} again for the new address.`
        : undefined;
      return { ...view(), cleared, ...(message ? { message } : {}) };
    },
    ownerSet(k) {
      const values = resolve().values;
      return ownerDestination(k) === destinationOf(String(values[k]));
    },
    secretFor(k, url) {
      const value = resolve().values[k];
      const bound = binding(k);
      const dest = destinationOf(url);
      return value && bound && dest && bound.includes(dest) ? value : '';
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** "A", "A and B", "A, B and C", the first word capitalised as it is (labels start with a capital). */
function sentenceList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)!.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase())}`;
}
