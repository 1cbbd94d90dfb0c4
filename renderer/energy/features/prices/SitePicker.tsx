import { useState } from 'react';
import { api, messageOf } from '../../../api.js';
import { Banner } from '../../../kit/Banner.js';
import { Labelled } from '../../settings/FieldErrors.js';
import { ownField } from '../../settings/plain.js';
import type { EditorProps } from '../../settings/SettingField.js';

interface Site {
  id: string;
  nmi: string;
  network: string;
  status: string;
  intervalLength: number | null;
}

/** The Amber site: picked from the account's sites (fetched with the saved token). */
export function SitePicker({ path, schema, value, errors, disabled, set }: EditorProps) {
  const [sites, setSites] = useState<Site[] | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  const find = async () => {
    setMsg(null);
    setSites(null);
    try {
      const r = await api.post<{ ok: boolean; sites: Site[]; error?: string }>('/api/prices/amber/sites', {});
      if (!r.ok) setMsg(`Amber did not list your sites: ${r.error ?? 'no answer'}`);
      else if (r.sites.length === 0) setMsg('Amber lists no sites for this token.');
      setSites(r.sites);
    } catch (err) {
      setMsg(messageOf(err));
    }
  };
  const pick = (s: Site) => {
    set(path, s.id);
    setSites(null);
    setMsg(`Picked the site with meter ${s.nmi || s.id}. Save to use it.`);
  };
  return (
    <div className="field" data-testid="amber-site-picker">
      <Labelled field={ownField(path, schema)} errors={errors} path={path}>
        {(id, d) => (
          <div className="row">
            <input id={id} aria-describedby={d} type="text" value={String(value ?? '')} disabled={disabled} onChange={(e) => set(path, e.target.value)} placeholder="Pick from your sites" />
            <button type="button" disabled={disabled} onClick={() => void find()}>
              Find my sites
            </button>
          </div>
        )}
      </Labelled>
      {sites && sites.length > 0 && (
        <ul data-testid="amber-sites">
          {sites.map((s) => (
            <li key={s.id}>
              <button type="button" onClick={() => pick(s)}>
                Meter {s.nmi || s.id}
                {s.network ? `, ${s.network}` : ''}
                {s.status ? ` (${s.status}${s.intervalLength ? `, ${s.intervalLength}-minute prices` : ''})` : ''}
              </button>
            </li>
          ))}
        </ul>
      )}
      {msg && <Banner kind="info">{msg}</Banner>}
    </div>
  );
}
