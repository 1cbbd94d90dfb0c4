import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { Card } from '../../kit/Card.js';
import { Field } from '../../kit/Field.js';
import { withOwnerNote } from '../../kit/owner-only.js';
import { WhyDisabled } from '../../kit/SectionedPage.js';
import { messageOf, rec, RecApiError } from '../api.js';
import type { SettingsView } from '../types.js';
import { publishSettings } from '../use-server.js';

export interface SettingDef {
  key: string;
  label: string;
  hint?: ReactNode;
  kind: 'text' | 'number' | 'bool' | 'secret';
  placeholder?: string;
}

const MASK = '••••••••';
type Values = Record<string, string | boolean>;

function initialValues(defs: SettingDef[], view: SettingsView): Values {
  const out: Values = {};
  for (const d of defs) {
    const v = view.settings[d.key];
    out[d.key] = d.kind === 'bool' ? v === true : d.kind === 'secret' ? '' : v === undefined || v === null ? '' : String(v);
  }
  return out;
}

const SOURCE_LABEL: Record<string, string> = { env: 'from the environment', default: 'default' };

/**
 * One group of settings saved together with `PATCH /api/settings`, sending only what changed.
 * Secrets are never shown back: their box stays empty ("stored") and is sent only when typed into.
 * A value the server refuses is shown beside its field with the server's message. Opened on another
 * device, the settings that name a place on the PC or how the app listens are read-only, saying so.
 */
export function SettingsCard({ title, id, defs, view, extra, extraAfter, actions, testId }: { title: string; id: string; defs: SettingDef[]; view: SettingsView; extra?: (values: Values) => ReactNode; /** Key of the field `extra` follows (default: after the last field). */ extraAfter?: string; actions?: ReactNode; testId?: string }) {
  const [values, setValues] = useState<Values>(() => initialValues(defs, view));
  const [base, setBase] = useState<Values>(() => initialValues(defs, view));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const changed = defs.filter((d) => (d.kind === 'secret' ? values[d.key] !== '' : values[d.key] !== base[d.key]));
  const editing = changed.length > 0;
  // Values the server changed meanwhile (a discovery that filled a field in) show unless the user is
  // editing; only a new server view resets the fields.
  useEffect(() => {
    if (editing) return;
    const fresh = initialValues(defs, view);
    setValues(fresh);
    setBase(fresh);
  }, [view]);

  const save = async () => {
    setSaving(true);
    setErrors({});
    setStatus(null);
    const body: Record<string, unknown> = {};
    for (const d of changed) {
      const v = values[d.key];
      body[d.key] = d.kind === 'number' && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    }
    try {
      const next = await rec.patch<SettingsView & { message?: string }>('/api/settings', body);
      publishSettings(next);
      const fresh = initialValues(defs, next);
      setValues(fresh);
      setBase(fresh);
      // A secret cleared because its address changed is said, not hidden (the server's words).
      setStatus({ kind: 'ok', text: next.message ? `Saved. ${next.message}` : 'Saved.' });
    } catch (err) {
      if (err instanceof RecApiError && err.field && defs.some((d) => d.key === err.field)) setErrors({ [err.field]: err.message });
      else setStatus({ kind: 'error', text: messageOf(err) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={title} id={id} actions={actions}>
      <form
        data-testid={testId}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {defs.map((d) => {
          const source = view.sources[d.key];
          const badge = source && source !== 'stored' ? <span className="badge">{SOURCE_LABEL[source] ?? source}</span> : null;
          const set = (v: string | boolean) => {
            setValues((x) => ({ ...x, [d.key]: v }));
            setErrors((e) => ({ ...e, [d.key]: '' }));
          };
          const after = extra && extraAfter === d.key ? extra(values) : null;
          const readOnly = view.owner === false && (view.owner_only ?? []).includes(d.key);
          if (d.kind === 'bool') {
            return (
              <Fragment key={d.key}>
                <Field label={d.label} hint={d.hint} error={errors[d.key]} checkbox>
                  {(p) => <input {...p} type="checkbox" checked={values[d.key] === true} onChange={(e) => set(e.target.checked)} />}
                </Field>
                {after}
              </Fragment>
            );
          }
          const stored = d.kind === 'secret' && view.settings[d.key] === MASK;
          return (
            <Fragment key={d.key}>
              <Field label={d.label} hint={withOwnerNote(d.hint, readOnly)} error={errors[d.key]} badge={badge}>
                {(p) => (
                  <input
                    {...p}
                    readOnly={readOnly}
                    disabled={readOnly}
                    type={d.kind === 'secret' ? 'password' : d.kind === 'number' ? 'number' : 'text'}
                    inputMode={d.kind === 'number' ? 'numeric' : undefined}
                    value={String(values[d.key] ?? '')}
                    placeholder={stored ? 'stored — type to replace' : (d.placeholder ?? (d.kind === 'secret' ? 'not set' : undefined))}
                    autoComplete={d.kind === 'secret' ? 'new-password' : 'off'}
                    onChange={(e) => set(e.target.value)}
                  />
                )}
              </Field>
              {after}
            </Fragment>
          );
        })}
        {extra && !extraAfter && extra(values)}
        <div className="row save-bar" data-testid="save-bar">
          <button type="submit" className="primary" disabled={saving || changed.length === 0} aria-describedby={!saving && changed.length === 0 ? `${id}-save-why` : undefined}>
            Save
          </button>
          <WhyDisabled id={`${id}-save-why`} why={!saving && changed.length === 0 && !status ? 'Nothing to save: no changes yet.' : null} />
          {status && (
            <span className={status.kind === 'error' ? 'error-text' : 'muted'} role={status.kind === 'error' ? 'alert' : 'status'}>
              {status.text}
            </span>
          )}
        </div>
      </form>
    </Card>
  );
}
