import { useCallback, useEffect, useState } from 'react';
import { messageOf, rec } from './api.js';
import type { SettingsView } from './types.js';

let cached: SettingsView | null = null;
const listeners = new Set<(v: SettingsView) => void>();

/** Shares a freshly saved settings view with every page that shows settings. */
export function publishSettings(view: SettingsView): void {
  cached = view;
  for (const l of listeners) l(view);
}

/** `GET /api/settings` (time zone, capabilities, values with their sources), loaded once and shared. */
export function useServerSettings(): { view: SettingsView | null; error: string | null; reload: () => Promise<void> } {
  const [view, setView] = useState<SettingsView | null>(cached);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      publishSettings(await rec.get<SettingsView>('/api/settings'));
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);
  useEffect(() => {
    listeners.add(setView);
    // Published between this component's first render and now (another page part loaded it): take it.
    if (cached) setView(cached);
    else void reload();
    return () => void listeners.delete(setView);
  }, [reload]);
  return { view, error, reload };
}
