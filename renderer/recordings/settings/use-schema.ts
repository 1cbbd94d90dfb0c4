import { useEffect, useState } from 'react';
import { rec } from '../api.js';

/** One setting as `GET /api/settings/schema` publishes it: the one source of its label and hint. */
export interface SchemaField {
  label: string;
  description: string;
  applies: 'live' | 'restart';
  secret: boolean;
  default: unknown;
}
export type SettingsSchema = Record<string, SchemaField>;

let loading: Promise<SettingsSchema> | null = null;

/** The settings schema, loaded once per page load and shared by every settings card. */
export function useSettingsSchema(): { fields: SettingsSchema | null; error: string | null } {
  const [fields, setFields] = useState<SettingsSchema | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    loading ??= rec.get<{ fields: SettingsSchema }>('/api/settings/schema').then((r) => r.fields);
    loading.then(
      (f) => alive && setFields(f),
      (err: unknown) => {
        loading = null;
        if (alive) setError(err instanceof Error ? err.message : String(err));
      },
    );
    return () => {
      alive = false;
    };
  }, []);
  return { fields, error };
}

export type SettingKind = 'text' | 'number' | 'bool' | 'secret';

/** The control a setting needs, from its schema entry. */
export function kindOf(f: SchemaField): SettingKind {
  if (f.secret) return 'secret';
  if (typeof f.default === 'boolean') return 'bool';
  if (typeof f.default === 'number') return 'number';
  return 'text';
}

/** The unit beside a number, from the key's ending, unless the label names it already ("Space to keep free (MB)"). */
export function unitOf(key: string, label: string): string | null {
  if (/\(.+\)\s*$/.test(label)) return null;
  const m = /_(seconds|ms|mb|days|bytes|minutes)$/.exec(key);
  if (!m) return null;
  return ({ seconds: 's', ms: 'ms', mb: 'MB', days: 'days', bytes: 'bytes', minutes: 'min' } as const)[m[1] as 'seconds'];
}
