import { useCallback, useEffect, useState } from 'react';
import { api, messageOf } from '../../api.js';
import type { JsonSchema } from './schema.js';

/** `owner`: whether this browser may change `ownerOnly` (from the PC itself, or with a passcode session). */
export type SettingsBody = Record<string, unknown> & { passcodeSet: boolean; unlocked: boolean; owner?: boolean; ownerOnly?: string[] };

/** GET /api/settings (with the session token, if any) and the schema that describes it. */
export function useSettings() {
  const [settings, setSettings] = useState<SettingsBody | null>(null);
  const [schema, setSchema] = useState<JsonSchema | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      const [s, sc] = await Promise.all([api.get<SettingsBody>('/api/settings'), schema ? Promise.resolve(schema) : api.get<JsonSchema>('/api/settings/schema')]);
      setSettings(s);
      setSchema(sc);
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [schema]);
  useEffect(() => {
    void reload();
    // Load once; reload() is called again after each change.
  }, []);
  return { settings, schema, error, reload, setSettings };
}
