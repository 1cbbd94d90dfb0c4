import { useState } from 'react';
import { api, messageOf } from '../../../api.js';
import { Banner } from '../../../kit/Banner.js';
import { Labelled } from '../../settings/FieldErrors.js';
import { ownField } from '../../settings/plain.js';
import type { EditorProps } from '../../settings/SettingField.js';

interface Place {
  name: string;
  latitude: number;
  longitude: number;
  detail: string;
}

/** The weather place: a name with a search that fills in the coordinates. */
export function PlaceSearch({ path, schema, value, errors, disabled, set, setRaw }: EditorProps) {
  const group = path.split('.')[0]!;
  const [places, setPlaces] = useState<Place[] | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  const search = async () => {
    setMsg(null);
    setPlaces(null);
    try {
      const r = await api.get<{ ok: boolean; places: Place[]; error?: string }>(`/api/weather/places?name=${encodeURIComponent(String(value ?? ''))}`);
      if (!r.ok) setMsg(`The place search failed: ${r.error ?? 'no answer'}`);
      else if (r.places.length === 0) setMsg('No place by that name was found.');
      setPlaces(r.places);
    } catch (err) {
      setMsg(messageOf(err));
    }
  };
  const pick = (p: Place) => {
    set(path, p.name);
    set(`${group}.latitude`, p.latitude);
    set(`${group}.longitude`, p.longitude);
    setRaw(`${group}.latitude`, String(p.latitude));
    setRaw(`${group}.longitude`, String(p.longitude));
    setPlaces(null);
    setMsg(`Picked ${p.name}${p.detail ? `, ${p.detail}` : ''} (${p.latitude.toFixed(3)}, ${p.longitude.toFixed(3)}). Save to use it.`);
  };
  return (
    <div className="field" data-testid="place-search">
      <Labelled field={ownField(path, schema)} errors={errors} path={path}>
        {(id, d) => (
          <div className="row">
            <input id={id} aria-describedby={d} type="text" value={String(value ?? '')} disabled={disabled} onChange={(e) => set(path, e.target.value)} placeholder="Town or suburb" />
            <button type="button" disabled={disabled || String(value ?? '').trim().length < 2} onClick={() => void search()}>
              Find place
            </button>
          </div>
        )}
      </Labelled>
      <span className="hint">Find place fills in the coordinates below; you may also type them.</span>
      {places && places.length > 0 && (
        <ul data-testid="place-results">
          {places.map((p) => (
            <li key={`${p.latitude},${p.longitude}`}>
              <button type="button" onClick={() => pick(p)}>
                {p.name}
                {p.detail ? `, ${p.detail}` : ''}
              </button>
            </li>
          ))}
        </ul>
      )}
      {msg && <Banner kind="info">{msg}</Banner>}
    </div>
  );
}
