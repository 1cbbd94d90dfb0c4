import { useEffect, useId, useState } from 'react';
import { messageOf, rec } from '../../api.js';
import { LockedWhy, useLocked } from '../../locked.js';
import { useSettingsSchema } from '../../settings/use-schema.js';
import type { SettingsView } from '../../types.js';
import { publishSettings } from '../../use-server.js';

/** The three media servers, each with the one thing that differs for its owner. */
export const SERVER_KINDS = [
  { kind: 'plex', name: 'Plex', says: 'Found by its network search; the token can be read from its preferences file on this PC.' },
  { kind: 'jellyfin', name: 'Jellyfin', says: 'Found by its network search; paste an API key made in its dashboard (API Keys). Only the new folders are rescanned.' },
  { kind: 'emby', name: 'Emby', says: 'Found by its network search; paste an API key made in its dashboard (API Keys). Only the new folders are rescanned.' },
] as const;

/** Which media server the service refreshes: saved as soon as it is picked (`media_server_kind`). */
export function ServerKindPicker({ view }: { view: SettingsView }) {
  const { fields } = useSettingsSchema();
  const current = String(view.settings.media_server_kind ?? 'plex');
  // Shown picked at once; back to the saved kind if the service refuses it.
  const [picked, setPicked] = useState(current);
  useEffect(() => setPicked(current), [current]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const locked = useLocked();
  const name = useId();
  const pick = async (kind: string) => {
    setSaving(true);
    setError(null);
    setPicked(kind);
    try {
      publishSettings(await rec.patch<SettingsView>('/api/settings', { media_server_kind: kind }));
    } catch (err) {
      setPicked(current);
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };
  const field = fields?.media_server_kind;
  return (
    <fieldset className="server-kind">
      <legend>{field?.label ?? 'Media server'}</legend>
      {field?.description && <p className="muted small">{field.description}</p>}
      <ul className="pick-list">
        {SERVER_KINDS.map((k) => (
          <li key={k.kind}>
            <label>
              <input type="radio" name={name} value={k.kind} checked={picked === k.kind} disabled={saving || locked === true} onChange={() => void pick(k.kind)} /> <strong>{k.name}</strong>{' '}
              <span className="muted small">{k.says}</span>
            </label>
          </li>
        ))}
      </ul>
      <LockedWhy id={`${name}-locked`} locked={locked} what="change the media server" />
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
