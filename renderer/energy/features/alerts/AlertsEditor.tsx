import { useCallback, useEffect, useState } from 'react';
import { api, messageOf } from '../../../api.js';
import { Banner } from '../../../kit/Banner.js';
import { WhyDisabled } from '../../../kit/SectionedPage.js';
import { Err, Labelled, ListHeading, numText, toNumber } from '../../settings/FieldErrors.js';
import { itemField } from '../../settings/plain.js';
import type { EditorProps } from '../../settings/SettingField.js';

type Obj = Record<string, unknown>;

interface RuleStatus {
  id: string;
  active: boolean;
  since: number | null;
  lastDelivery: { event: string; at: string; ok: boolean; status: number | null; error: string | null; attempts: number } | null;
}

/** Alert rules as a form: one card per rule, no JSON. */
export function AlertsEditor({ path, schema, value, errors, disabled, set }: EditorProps) {
  const f = (key: string) => itemField(schema, key);
  // The triggers, the comparisons and each trigger's units in the server's words (the schema's options).
  const item = schema.items?.properties ?? {};
  const triggers = item.trigger?.options ?? {};
  const unitsOf = (trigger: string) => item.trigger?.units?.[trigger] ?? [''];
  // A yes/no trigger (gateway offline, a price spike) has no level and no unit.
  const yesNo = (trigger: string) => unitsOf(trigger)[0] === '';
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
      <ListHeading schema={schema} />
      <Err errors={errors} path={path} />
      {list.length === 0 && <p className="muted">No alert rules yet.</p>}
      {list.map((r, i) => {
        const p = `${path}.${i}`;
        const trigger = typeof r.trigger === 'string' && r.trigger in triggers ? r.trigger : 'batterySoc';
        const offline = yesNo(trigger);
        const st = typeof r.id === 'string' ? status[r.id] : undefined;
        const unit = (r.unit as string | null | undefined) ?? unitsOf(trigger)[0]!;
        return (
          <div key={i} className="card" data-testid={`alert-rule-${i}`}>
            <div className="row">
              <Labelled field={f('name')} errors={errors} path={`${p}.name`}>
                {(id, d) => <input id={id} aria-describedby={d} type="text" value={String(r.name ?? '')} onChange={(e) => update(i, { name: e.target.value })} />}
              </Labelled>
              <Labelled field={f('trigger')} errors={errors} path={`${p}.trigger`}>
                {(id, d) => (
                  <select id={id} aria-describedby={d} value={trigger} onChange={(e) => update(i, { trigger: e.target.value, unit: null, ...(yesNo(e.target.value) ? { condition: 'atOrAbove', threshold: 1 } : {}) })}>
                    {Object.entries(triggers).map(([key, words]) => (
                      <option key={key} value={key}>
                        {words}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
              {!offline && (
                <>
                  <Labelled field={f('condition')} errors={errors} path={`${p}.condition`}>
                    {(id, d) => (
                      <select id={id} aria-describedby={d} value={String(r.condition ?? 'atOrBelow')} onChange={(e) => update(i, { condition: e.target.value })}>
                        {Object.entries(item.condition?.options ?? {}).map(([key, words]) => (
                          <option key={key} value={key}>
                            {words}
                          </option>
                        ))}
                      </select>
                    )}
                  </Labelled>
                  <Labelled field={f('threshold')} errors={errors} path={`${p}.threshold`}>
                    {(id, d) => <input id={id} aria-describedby={d} type="number" step="any" value={numText(r.threshold)} onChange={(e) => update(i, { threshold: toNumber(e.target.value) })} />}
                  </Labelled>
                  <Labelled field={f('unit')} errors={errors} path={`${p}.unit`}>
                    {(id, d) => (
                      <select id={id} aria-describedby={d} value={unit} onChange={(e) => update(i, { unit: e.target.value })}>
                        {unitsOf(trigger).map((u) => (
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
              <Labelled field={f('settleSeconds')} errors={errors} path={`${p}.settleSeconds`}>
                {(id, d) => <input id={id} aria-describedby={d} type="number" min="0" step="1" value={numText(r.settleSeconds)} onChange={(e) => update(i, { settleSeconds: toNumber(e.target.value) ?? 0 })} />}
              </Labelled>
              <Labelled field={f('clearSeconds')} errors={errors} path={`${p}.clearSeconds`}>
                {(id, d) => <input id={id} aria-describedby={d} type="number" min="0" step="1" value={numText(r.clearSeconds)} onChange={(e) => update(i, { clearSeconds: toNumber(e.target.value) })} />}
              </Labelled>
              <Labelled field={f('webhookUrl')} errors={errors} path={`${p}.webhookUrl`}>
                {(id, d) => <input id={id} aria-describedby={d} type="url" placeholder="http://…" value={String(r.webhookUrl ?? '')} onChange={(e) => update(i, { webhookUrl: e.target.value })} />}
              </Labelled>
              <label className="small">
                <input type="checkbox" checked={r.enabled !== false} onChange={(e) => update(i, { enabled: e.target.checked })} /> {f('enabled').label}
              </label>
              <label className="small" title={f('homekit').hint}>
                <input type="checkbox" checked={r.homekit === true} onChange={(e) => update(i, { homekit: e.target.checked })} /> {f('homekit').label}
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
