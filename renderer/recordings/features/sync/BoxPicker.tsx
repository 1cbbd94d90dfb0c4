import { useEffect, useId, useState } from 'react';
import { Field } from '../../../kit/Field.js';
import { messageOf, rec, RecApiError } from '../../api.js';
import type { BoxView, SettingsView } from '../../types.js';
import { publishSettings } from '../../use-server.js';
import { LockedWhy, useLocked } from '../../locked.js';

/**
 * Finds recording boxes (SSDP search on the LAN, or one manual address), offers a pick list when
 * several answer, and saves the chosen one as `box_address` (its description URL).
 */
export function BoxPicker({ current, autoSearch = false, onSaved }: { current: string; autoSearch?: boolean; onSaved?: (box: BoxView) => void }) {
  const [boxes, setBoxes] = useState<BoxView[] | null>(null);
  const [chosen, setChosen] = useState<string>('');
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [address, setAddress] = useState('');
  const [addressError, setAddressError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const name = useId();
  const [named, setNamed] = useState<Array<{ address: string; reachable: boolean; friendly_name: string | null; model_name: string | null }> | null>(null);
  useEffect(() => {
    let alive = true;
    setNamed(null);
    if (!current) return;
    rec
      .get<{ boxes: NonNullable<typeof named> }>('/api/box')
      .then((r) => alive && setNamed(r.boxes))
      .catch(() => alive && setNamed([]));
    return () => {
      alive = false;
    };
  }, [current]);

  const search = async (manual?: string) => {
    setSearching(true);
    setError(null);
    setAddressError(null);
    setSaved(null);
    try {
      const res = await rec.post<{ boxes: BoxView[] }>('/api/discover-box', manual ? { address: manual } : {});
      setBoxes(res.boxes);
      setChosen(res.boxes.length === 1 ? res.boxes[0]!.location : '');
    } catch (err) {
      if (manual && err instanceof RecApiError && (err.field === 'address' || err.code === 'box_unreachable')) setAddressError(err.message);
      else setError(messageOf(err));
    } finally {
      setSearching(false);
    }
  };

  const locked = useLocked();
  const lockedDesc = locked ? 'box-picker-locked' : undefined;
  const [searched, setSearched] = useState(false);
  useEffect(() => {
    // Search once when the step opens, once the lock state is known: a locked page asks nothing the
    // server would refuse (401), it offers the unlock form and searches after the unlock.
    if (!autoSearch || searched || locked !== false) return;
    setSearched(true);
    void search();
  }, [autoSearch, searched, locked]);

  const save = async () => {
    const box = boxes?.find((b) => b.location === chosen);
    if (!box) return;
    setError(null);
    try {
      publishSettings(await rec.patch<SettingsView>('/api/settings', { box_address: box.location }));
      setSaved(`Using ${box.friendly_name} (${box.address}).`);
      onSaved?.(box);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <div data-testid="box-picker">
      <p className="small">
        Current box:{' '}
        {current ? (
          <span data-testid="current-box">
            {named === null
              ? 'asking the box…'
              : named.length === 0
                ? current
                : named.map((b, i) => (
                    <span key={b.address}>
                      {i > 0 && ', '}
                      <strong>{b.friendly_name ?? 'a box that did not answer'}</strong>
                      {b.model_name && ` (${b.model_name})`}{' '}
                      <span className="muted small">
                        at {hostOf(b.address)}
                        {!b.reachable && ' — not answering now'}
                      </span>
                    </span>
                  ))}
          </span>
        ) : (
          <span className="muted">none saved — every sync searches the network for boxes</span>
        )}
      </p>
      <div className="row">
        <button type="button" onClick={() => void search()} disabled={searching || locked === true} aria-describedby={lockedDesc}>
          {searching ? 'Searching…' : 'Find boxes on the network'}
        </button>
        <LockedWhy id="box-picker-locked" locked={locked} what="search for boxes or choose one" />
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {boxes && boxes.length === 0 && <p className="muted">No recording box answered. Check it is switched on, or enter its address below.</p>}
      {boxes && boxes.length > 0 && (
        <fieldset>
          <legend>{boxes.length === 1 ? 'Found one box' : `Found ${boxes.length} boxes: pick yours`}</legend>
          <ul className="pick-list">
            {boxes.map((b) => (
              <li key={b.location}>
                <label>
                  <input type="radio" name={name} value={b.location} checked={chosen === b.location} onChange={() => setChosen(b.location)} /> <strong>{b.friendly_name}</strong>{' '}
                  <span className="muted small">
                    {b.model_name ? `${b.model_name} · ` : ''}
                    {b.address}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <button type="button" className="primary" disabled={!chosen || locked === true} aria-describedby={lockedDesc} onClick={() => void save()}>
            Use this box
          </button>
        </fieldset>
      )}
      {saved && (
        <p role="status" className="small">
          {saved}
        </p>
      )}
      <form
        className="row addr-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (address.trim()) void search(address.trim());
        }}
      >
        <Field label="Or the box's address" hint="IP or host name (port 49152 implied), or its description URL." error={addressError}>
          {(p) => <input {...p} value={address} onChange={(e) => setAddress(e.target.value)} placeholder="192.168.1.20" autoComplete="off" />}
        </Field>
        <button type="submit" disabled={searching || !address.trim() || locked === true} aria-describedby={lockedDesc}>
          Check address
        </button>
      </form>
    </div>
  );
}

/** "192.168.1.20:49152" for a saved description URL; a plain address as it is. */
function hostOf(address: string): string {
  try {
    return /^https?:\/\//i.test(address) ? new URL(address).host : address;
  } catch {
    return address;
  }
}
