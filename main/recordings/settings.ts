import fs from 'node:fs';
import path from 'node:path';
import cron from 'node-cron';
import { z } from 'zod';
import { isHostName, splitHostList } from '../core/host-check.js';
import type { Db } from '../core/sqlite.js';
import { parseInput } from '../core/validate.js';
import { brokerOf } from '../integrations/mqtt/settings.js';
import { recordingsIntegrationDefs, recordingsIntegrationSecrets } from '../integrations/mqtt/recordings-settings.js';

/** How a secret is shown on read; writing this value back leaves the stored secret unchanged. */
export const SECRET_MASK = '••••••••';

const absolutePath = z.string().min(1).max(1024).refine((p) => path.isAbsolute(p), 'must be an absolute path');
const cronExpr = z
  .string()
  .trim()
  .min(1)
  .refine((c) => cron.validate(c), 'is not a valid cron expression (5 or 6 fields, e.g. "*/30 * * * *")');
const httpUrlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^https?$/ })]);
const wsUrlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^wss?$/ })]);
/** An IP or host name with an optional port, or a full http URL of the device description. */
const oneBoxAddress = z.union([
  z.url({ protocol: /^https?$/ }),
  z
    .string()
    .max(255)
    .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, 'must be an IP or host name, optionally with :port, or an http URL'),
]);
/** One box address, or several separated by commas or spaces (two boxes on one LAN); blank searches by SSDP. */
const boxAddress = z
  .string()
  .max(1024)
  .superRefine((value, ctx) => {
    const parts = value.split(/[\s,]+/).filter(Boolean);
    if (parts.length > 8) ctx.addIssue({ code: 'custom', message: 'at most 8 box addresses' });
    for (const part of parts) {
      if (!oneBoxAddress.safeParse(part).success) {
        ctx.addIssue({ code: 'custom', message: `"${part.slice(0, 80)}" must be an IP or host name, optionally with :port, or an http URL` });
        return;
      }
    }
  });
const secret = z.string().max(512);
/** Extra host names the service answers to (DNS-rebinding defence, core/host-check.ts), separated by commas or spaces. */
const hostList = z
  .string()
  .max(2048)
  .refine((v) => splitHostList(v).every(isHostName), 'must be host names (such as pc.home.lan) separated by commas or spaces');

interface SettingDef {
  schema: z.ZodType;
  default: unknown;
  /** Environment variable consulted when the setting is not stored. */
  env?: string;
  secret?: boolean;
  /** `live`: takes effect on save; `restart`: read at start. */
  applies: 'live' | 'restart';
}

/** The one schema of the settings: each key's validator, default, env seed, secrecy and when it applies. */
export const settingDefs = {
  media_root: { schema: absolutePath, default: '/media/tv', env: 'MEDIA_ROOT', applies: 'live' },
  sync_cron: { schema: cronExpr, default: '*/30 * * * *', applies: 'live' },
  box_address: { schema: boxAddress, default: '', applies: 'live' },
  download_concurrency: { schema: z.number().int().min(1).max(4), default: 1, applies: 'live' },
  /** Free space a download must leave on the media root's disk (MB); an item that would not is skipped. */
  free_space_margin_mb: { schema: z.number().int().min(0).max(1024 * 1024), default: 256, applies: 'live' },
  size_tolerance_bytes: { schema: z.number().int().min(0).max(1024 * 1024 * 1024), default: 1024 * 1024, applies: 'live' },
  ad_removal_enabled: { schema: z.boolean(), default: false, applies: 'live' },
  ad_original_retention_days: { schema: z.number().int().min(0).max(3650), default: 7, applies: 'live' },
  media_server_url: { schema: httpUrlOrEmpty, default: '', applies: 'live' },
  media_server_token: { schema: secret, default: '', secret: true, applies: 'live' },
  media_server_section_id: { schema: z.string().max(32).regex(/^\d*$/, 'must be a section number'), default: '', applies: 'live' },
  media_server_prefs_path: { schema: absolutePath, default: '/media-server-preferences.xml', env: 'MEDIA_SERVER_PREFS_PATH', applies: 'live' },
  cloud_api_url: { schema: httpUrlOrEmpty, default: '', applies: 'live' },
  cloud_ws_url: { schema: wsUrlOrEmpty, default: '', applies: 'live' },
  cloud_activation_code: { schema: secret, default: '', secret: true, applies: 'live' },
  cloud_pin: { schema: secret, default: '', secret: true, applies: 'live' },
  allowed_hosts: { schema: hostList, default: '', env: 'ALLOWED_HOSTS', applies: 'live' },
  ...recordingsIntegrationDefs,
} satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof settingDefs;
export type Settings = {
  [K in SettingKey]: (typeof settingDefs)[K]['default'] extends number
    ? number
    : (typeof settingDefs)[K]['default'] extends boolean
      ? boolean
      : string;
};
export type SettingSource = 'stored' | 'env' | 'default';

/**
 * Each secret and the settings naming where it is sent. A secret is bound to the destinations
 * (scheme, host, port) these settings held when it was given; it is attached only to requests for
 * them, and changing one of them without giving the secret again clears the secret.
 */
export const SECRET_DESTINATIONS = {
  media_server_token: ['media_server_url'],
  cloud_activation_code: ['cloud_api_url', 'cloud_ws_url'],
  cloud_pin: ['cloud_api_url', 'cloud_ws_url'],
  ...recordingsIntegrationSecrets,
} as const satisfies Partial<Record<SettingKey, readonly SettingKey[]>>;
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

const keys = Object.keys(settingDefs) as SettingKey[];

/** Body of `PATCH /api/settings`: any subset of keys; `null` removes the stored value (back to env/default). */
export const settingsPatchSchema = z
  .object(Object.fromEntries(keys.map((k) => [k, (settingDefs[k].schema as z.ZodType).nullable().optional()])))
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
  patch(body: unknown, now: number): PatchResult;
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

  const destinationsNow = (k: SecretKey, values: Settings): string[] => SECRET_DESTINATIONS[k].map((d) => destinationOf(values[d]));
  const binding = (k: SecretKey): string[] | null => {
    const row = selectOne.get(bindingKey(k)) as { value_json: string } | undefined;
    if (!row) return null;
    const v: unknown = JSON.parse(row.value_json);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
  };
  const sameDestinations = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

  // Migration: a secret stored before secrets were bound is bound to the destination stored now.
  db.transaction(() => {
    const { values, sources } = resolve();
    for (const k of secretKeys) {
      if (sources[k] === 'stored' && values[k] && binding(k) === null) upsert.run(bindingKey(k), JSON.stringify(destinationsNow(k, values)), Date.now());
    }
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
    patch(body, now) {
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
        ? `${cleared.join(', ')} ${cleared.length === 1 ? 'was' : 'were'} cleared: a secret is only sent to the address it was given for, and that address changed. Enter ${cleared.length === 1 ? 'it' : 'them'} again for the new address.`
        : undefined;
      return { ...view(), cleared, ...(message ? { message } : {}) };
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
