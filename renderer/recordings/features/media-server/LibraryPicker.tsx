import { useId, useState } from 'react';
import { messageOf, rec } from '../../api.js';
import { LockedWhy, useLocked } from '../../locked.js';
import type { SettingsView } from '../../types.js';
import { publishSettings } from '../../use-server.js';

interface Library {
  id: string;
  title: string;
  type: string;
  tv: boolean;
}

/** Lists the saved server's libraries (`POST /api/media-server/libraries`) and saves the one picked as `media_server_section_id`. */
export function LibraryPicker({ view }: { view: SettingsView }) {
  const [libraries, setLibraries] = useState<Library[] | null>(null);
  const [chosen, setChosen] = useState<string>('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const locked = useLocked();
  const name = useId();
  const list = async () => {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const res = await rec.post<{ libraries: Library[]; selected: string }>('/api/media-server/libraries');
      setLibraries(res.libraries);
      setChosen(res.selected || res.libraries.find((l) => l.tv)?.id || '');
    } catch (err) {
      setLibraries(null);
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    setError(null);
    try {
      publishSettings(await rec.patch<SettingsView>('/api/settings', { media_server_section_id: chosen }));
      setSaved(`Saved: "${libraries?.find((l) => l.id === chosen)?.title ?? chosen}" is refreshed after new downloads.`);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <div className="library-picker">
      <span className="row">
        <button type="button" onClick={() => void list()} disabled={busy || locked === true || !view.settings.media_server_url}>
          {busy ? 'Asking…' : 'Choose library'}
        </button>
        <LockedWhy id={`${name}-locked`} locked={locked} what="choose the library" />
      </span>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {libraries && libraries.length === 0 && <p className="muted">The server has no libraries yet.</p>}
      {libraries && libraries.length > 0 && (
        <fieldset>
          <legend>Which library holds your TV shows?</legend>
          <ul className="pick-list">
            {libraries.map((l) => (
              <li key={l.id}>
                <label>
                  <input type="radio" name={name} value={l.id} checked={chosen === l.id} onChange={() => setChosen(l.id)} /> <strong>{l.title || l.id}</strong> <span className="muted small">{l.tv ? 'TV shows' : l.type || 'other'}</span>
                </label>
              </li>
            ))}
          </ul>
          <button type="button" className="primary" disabled={!chosen || locked === true} onClick={() => void save()}>
            Use this library
          </button>
        </fieldset>
      )}
      {saved && (
        <p role="status" className="small">
          {saved}
        </p>
      )}
    </div>
  );
}
