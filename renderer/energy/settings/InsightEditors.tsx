import { useCallback, useEffect, useId, useState } from 'react';
import { api, messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { WhyDisabled } from '../../kit/SectionedPage.js';
import { Err } from './ListEditors.js';
import type { EditorProps, FieldEditor } from './SettingField.js';

type Obj = Record<string, unknown>;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DAY_LABEL: Record<string, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

/** Typed text → number; blank → null; anything else is sent as typed so the server names it. */
const toNumber = (t: string): number | string | null => (t.trim() === '' ? null : Number.isFinite(Number(t)) ? Number(t) : t);
const numText = (v: unknown) => (v === null || v === undefined ? '' : String(v));


function Labelled({ label, children, errors, path }: { label: string; children: (id: string) => React.ReactNode; errors: Obj; path: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      <Err errors={errors} path={path} />
    </div>
  );
}

/** Time-of-use windows: name, start/end time pickers, weekday toggles and rates; first match wins. */
export function WindowsEditor({ path, value, errors, disabled, set }: EditorProps) {
  const list = (Array.isArray(value) ? value : []) as Obj[];
  const update = (i: number, patch: Obj) => set(path, list.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  return (
    <fieldset disabled={disabled} data-testid="tou-windows">
      <legend>Time-of-use windows</legend>
      <p className="small muted">Each window applies on the days it starts; an end before the start runs past midnight, an end equal to the start covers the whole day. Windows may not overlap. Outside every window the fallback rates apply.</p>
      <Err errors={errors} path={path} />
      {list.map((w, i) => {
        const p = `${path}.${i}`;
        const days = (w.days as string[] | undefined) ?? [...DAYS];
        return (
          <div key={i} className="card" data-testid={`tou-window-${i}`}>
            <div className="row">
              <Labelled label="Name" errors={errors} path={`${p}.name`}>
                {(id) => <input id={id} type="text" value={String(w.name ?? '')} onChange={(e) => update(i, { name: e.target.value })} />}
              </Labelled>
              <Labelled label="Start" errors={errors} path={`${p}.start`}>
                {(id) => <input id={id} type="time" value={String(w.start ?? '')} onChange={(e) => update(i, { start: e.target.value })} />}
              </Labelled>
              <Labelled label="End" errors={errors} path={`${p}.end`}>
                {(id) => <input id={id} type="time" value={String(w.end ?? '')} onChange={(e) => update(i, { end: e.target.value })} />}
              </Labelled>
              <Labelled label="Import rate (per kWh)" errors={errors} path={`${p}.importRate`}>
                {(id) => <input id={id} type="number" step="0.0001" min="0" value={numText(w.importRate)} onChange={(e) => update(i, { importRate: toNumber(e.target.value) ?? 0 })} />}
              </Labelled>
              <Labelled label="Feed-in rate (blank = fallback)" errors={errors} path={`${p}.feedInRate`}>
                {(id) => <input id={id} type="number" step="0.0001" min="0" value={numText(w.feedInRate)} onChange={(e) => update(i, { feedInRate: toNumber(e.target.value) })} />}
              </Labelled>
            </div>
            <div className="row" role="group" aria-label={`Days of ${String(w.name ?? 'window')}`}>
              {DAYS.map((d) => (
                <label key={d} className="small">
                  <input
                    type="checkbox"
                    checked={days.includes(d)}
                    onChange={(e) => update(i, { days: e.target.checked ? DAYS.filter((x) => x === d || days.includes(x)) : days.filter((x) => x !== d) })}
                  />{' '}
                  {DAY_LABEL[d]}
                </label>
              ))}
              <Err errors={errors} path={`${p}.days`} />
              <button type="button" onClick={() => set(path, list.filter((_, j) => j !== i))}>
                Remove window
              </button>
            </div>
          </div>
        );
      })}
      <button type="button" onClick={() => set(path, [...list, { name: `Window ${list.length + 1}`, start: '07:00', end: '10:00', days: [...DAYS], importRate: 0, feedInRate: null }])} disabled={list.length >= 24}>
        Add a window
      </button>
    </fieldset>
  );
}

const TRIGGERS: Array<{ key: string; label: string; units: string[] }> = [
  { key: 'batterySoc', label: 'Battery SOC', units: ['%'] },
  { key: 'gridImport', label: 'Grid import power', units: ['W', 'kW'] },
  { key: 'gridExport', label: 'Grid export power', units: ['W', 'kW'] },
  { key: 'solarPower', label: 'Solar power', units: ['W', 'kW'] },
  { key: 'homeLoad', label: 'Home load', units: ['W', 'kW'] },
  { key: 'batteryPower', label: 'Battery power (+ charging)', units: ['W', 'kW'] },
  { key: 'gatewayOffline', label: 'Gateway offline', units: [''] },
  { key: 'peakNotCovered', label: 'Battery will not cover the peak window', units: [''] },
];

interface RuleStatus {
  id: string;
  active: boolean;
  since: number | null;
  lastDelivery: { event: string; at: string; ok: boolean; status: number | null; error: string | null; attempts: number } | null;
}

/** Alert rules as a form: one card per rule, no JSON. */
export function AlertsEditor({ path, value, errors, disabled, set }: EditorProps) {
  const list = (Array.isArray(value) ? value : []) as Obj[];
  const [status, setStatus] = useState<Record<string, RuleStatus>>({});
  const [tests, setTests] = useState<Record<number, { kind: 'ok' | 'error'; text: string }>>({});
  const refresh = useCallback(async () => {
    try {
      const r = await api.get<{ rules: RuleStatus[] }>('/api/alerts');
      setStatus(Object.fromEntries(r.rules.map((x) => [x.id, x])));
    } catch {
      /* status is a nicety; the form works without it */
    }
  }, []);
  useEffect(() => {
    void refresh();
    const t = setInterval(() => void refresh(), 5000);
    return () => clearInterval(t);
  }, [refresh]);
  const update = (i: number, patch: Obj) => set(path, list.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const test = async (i: number, rule: Obj) => {
    try {
      const url = String(rule.webhookUrl ?? '').trim();
      const r = await api.post<{ ok: boolean; status: number | null; error: string | null }>('/api/test/alert', url ? { url } : { id: rule.id });
      setTests((t) => ({ ...t, [i]: r.ok ? { kind: 'ok', text: `The receiver answered HTTP ${r.status}.` } : { kind: 'error', text: `Not delivered: ${r.error ?? 'no answer'}.` } }));
    } catch (err) {
      setTests((t) => ({ ...t, [i]: { kind: 'error', text: messageOf(err) } }));
    }
  };
  return (
    <fieldset disabled={disabled} data-testid="alert-rules">
      <legend>Alert rules</legend>
      <Err errors={errors} path={path} />
      {list.length === 0 && <p className="muted">No alert rules yet.</p>}
      {list.map((r, i) => {
        const p = `${path}.${i}`;
        const trig = TRIGGERS.find((t) => t.key === r.trigger) ?? TRIGGERS[0]!;
        const offline = trig.key === 'gatewayOffline' || trig.key === 'peakNotCovered'; // yes/no triggers: no threshold
        const st = typeof r.id === 'string' ? status[r.id] : undefined;
        const unit = (r.unit as string | null | undefined) ?? trig.units[0]!;
        return (
          <div key={i} className="card" data-testid={`alert-rule-${i}`}>
            <div className="row">
              <Labelled label="Name" errors={errors} path={`${p}.name`}>
                {(id) => <input id={id} type="text" value={String(r.name ?? '')} onChange={(e) => update(i, { name: e.target.value })} />}
              </Labelled>
              <Labelled label="When" errors={errors} path={`${p}.trigger`}>
                {(id) => (
                  <select id={id} value={trig.key} onChange={(e) => update(i, { trigger: e.target.value, unit: null, ...(e.target.value === 'gatewayOffline' || e.target.value === 'peakNotCovered' ? { condition: 'atOrAbove', threshold: 1 } : {}) })}>
                    {TRIGGERS.map((t) => (
                      <option key={t.key} value={t.key}>
                        {t.label}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
              {!offline && (
                <>
                  <Labelled label="Is" errors={errors} path={`${p}.condition`}>
                    {(id) => (
                      <select id={id} value={String(r.condition ?? 'atOrBelow')} onChange={(e) => update(i, { condition: e.target.value })}>
                        <option value="atOrBelow">at or below</option>
                        <option value="atOrAbove">at or above</option>
                      </select>
                    )}
                  </Labelled>
                  <Labelled label="Threshold" errors={errors} path={`${p}.threshold`}>
                    {(id) => <input id={id} type="number" step="any" value={numText(r.threshold)} onChange={(e) => update(i, { threshold: toNumber(e.target.value) })} />}
                  </Labelled>
                  <Labelled label="Unit" errors={errors} path={`${p}.unit`}>
                    {(id) => (
                      <select id={id} value={unit} onChange={(e) => update(i, { unit: e.target.value })}>
                        {trig.units.map((u) => (
                          <option key={u} value={u}>
                            {u}
                          </option>
                        ))}
                      </select>
                    )}
                  </Labelled>
                </>
              )}
            </div>
            <div className="row">
              <Labelled label="Hold before firing (s)" errors={errors} path={`${p}.settleSeconds`}>
                {(id) => <input id={id} type="number" min="0" step="1" value={numText(r.settleSeconds)} onChange={(e) => update(i, { settleSeconds: toNumber(e.target.value) ?? 0 })} />}
              </Labelled>
              <Labelled label="Hold before clearing (s, blank = same)" errors={errors} path={`${p}.clearSeconds`}>
                {(id) => <input id={id} type="number" min="0" step="1" value={numText(r.clearSeconds)} onChange={(e) => update(i, { clearSeconds: toNumber(e.target.value) })} />}
              </Labelled>
              <Labelled label="Webhook URL (optional)" errors={errors} path={`${p}.webhookUrl`}>
                {(id) => <input id={id} type="url" placeholder="http://…" value={String(r.webhookUrl ?? '')} onChange={(e) => update(i, { webhookUrl: e.target.value })} />}
              </Labelled>
              <label className="small">
                <input type="checkbox" checked={r.enabled !== false} onChange={(e) => update(i, { enabled: e.target.checked })} /> Enabled
              </label>
              <label className="small" title="A contact sensor in the Home app, open while the alert is active (needs HomeKit on)">
                <input type="checkbox" checked={r.homekit === true} onChange={(e) => update(i, { homekit: e.target.checked })} /> Show in the Home app
              </label>
            </div>
            <div className="row small">
              {st?.active && <span className="badge restart">active</span>}
              {st?.lastDelivery && (
                <span data-testid={`alert-delivery-${i}`} className={st.lastDelivery.ok ? 'muted' : 'error'}>
                  Last webhook ({st.lastDelivery.event}, {new Date(st.lastDelivery.at).toLocaleString()}):{' '}
                  {st.lastDelivery.ok ? `delivered, HTTP ${st.lastDelivery.status}` : `failed after ${st.lastDelivery.attempts} attempt(s): ${st.lastDelivery.error}`}
                </span>
              )}
              <button type="button" onClick={() => void test(i, r)} disabled={!String(r.webhookUrl ?? '').trim()} aria-describedby={`${path}-${i}-test-why`}>
                Send a test alert
              </button>
              <WhyDisabled
                id={`${path}-${i}-test-why`}
                why={disabled ? 'Unlock the settings with the passcode first.' : !String(r.webhookUrl ?? '').trim() ? 'Enter the web address to call (the webhook) first.' : null}
              />
              <button type="button" onClick={() => set(path, list.filter((_, j) => j !== i))}>
                Remove rule
              </button>
            </div>
            {tests[i] && <Banner kind={tests[i]!.kind}>{tests[i]!.text}</Banner>}
          </div>
        );
      })}
      <button
        type="button"
        disabled={list.length >= 24}
        onClick={() => set(path, [...list, { name: 'Battery low', enabled: true, trigger: 'batterySoc', condition: 'atOrBelow', threshold: 20, unit: null, settleSeconds: 60, clearSeconds: null, webhookUrl: '' }])}
      >
        Add an alert rule
      </button>
      <p className="small muted">Up to 24 rules. Comparisons include the threshold. A webhook gets a JSON POST when the alert fires and when it clears (5 s timeout, retried after 2 s, 10 s and 30 s).</p>
    </fieldset>
  );
}

interface Place {
  name: string;
  latitude: number;
  longitude: number;
  detail: string;
}

/** The weather place: a name with a search that fills in the coordinates. */
export function PlaceSearch({ path, value, errors, disabled, set, setRaw }: EditorProps) {
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
      <Labelled label="Place" errors={errors} path={path}>
        {(id) => (
          <div className="row">
            <input id={id} type="text" value={String(value ?? '')} disabled={disabled} onChange={(e) => set(path, e.target.value)} placeholder="Town or suburb" />
            <button type="button" disabled={disabled || String(value ?? '').trim().length < 2} onClick={() => void search()}>
              Find place
            </button>
          </div>
        )}
      </Labelled>
      <span className="hint">Search by name to fill in the coordinates, or type coordinates below. With coordinates blank the name is looked up on every start.</span>
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

export const insightEditors: Record<string, Record<string, FieldEditor>> = {
  tariff: { 'tariff.windows': WindowsEditor },
  alerts: { alerts: AlertsEditor },
  weather: { 'weather.location': PlaceSearch },
};
