import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { Card } from '../../kit/Card.js';
import { Field } from '../../kit/Field.js';
import { withOwnerNote } from '../../kit/owner-only.js';
import { WhyDisabled } from '../../kit/SectionedPage.js';
import { messageOf, rec, RecApiError } from '../api.js';
import type { SettingsView } from '../types.js';
import { publishSettings } from '../use-server.js';
import { lockedWhy, useLocked } from '../locked.js';
import { kindOf, unitOf, useSettingsSchema, type SettingKind, type SettingsSchema } from './use-schema.js';

/** A setting a card edits: its key; the label, hint, kind and unit come from the server's schema. */
export interface SettingDef {
  key: string;
  placeholder?: string;
}

type Def = SettingDef & { label: string; hint: string; kind: SettingKind; unit: string | null };

const MASK = '••••••••';
type Values = Record<string, string | boolean>;

function initialValues(defs: Def[], view: SettingsView): Values {
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
export function SettingsCard(props: { title: string; id: string; defs: SettingDef[]; view: SettingsView; extra?: (values: Values) => ReactNode; /** Key of the field `extra` follows (default: after the last field). */ extraAfter?: string; actions?: ReactNode; testId?: string }) {
  const { fields, error } = useSettingsSchema();
  if (!fields) {
    return (
      <Card title={props.title} id={props.id} actions={props.actions}>
        {error ? <p className="error-text">{error}</p> : <p className="muted">Loading…</p>}
      </Card>
    );
  }
  return <SettingsForm {...props} defs={withSchema(props.defs, fields)} />;
}

/** Each key with its label, hint, kind and unit from the schema (a key the schema lacks shows its name). */
function withSchema(defs: SettingDef[], fields: SettingsSchema): Def[] {
  return defs.map((d) => {
    const f = fields[d.key];
    const label = f?.label ?? d.key;
    return { ...d, label, hint: f?.description ?? '', kind: f ? kindOf(f) : 'text', unit: unitOf(d.key, label) };
  });
}

function SettingsForm({ title, id, defs, view, extra, extraAfter, actions, testId }: { title: string; id: string; defs: Def[]; view: SettingsView; extra?: (values: Values) => ReactNode; extraAfter?: string; actions?: ReactNode; testId?: string }) {
  const [values, setValues] = useState<Values>(() => initialValues(defs, view));
  const [base, setBase] = useState<Values>(() => initialValues(defs, view));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const locked = useLocked();
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
                  <span className="with-unit">
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
                    {d.unit && <span className="unit">{d.unit}</span>}
                  </span>
                )}
              </Field>
              {after}
            </Fragment>
          );
        })}
        {extra && !extraAfter && extra(values)}
        <div className="row save-bar" data-testid="save-bar">
          <button type="submit" className="primary" disabled={saving || changed.length === 0 || locked === true} aria-describedby={locked || (!saving && changed.length === 0) ? `${id}-save-why` : undefined}>
            Save
          </button>
          <WhyDisabled id={`${id}-save-why`} why={locked ? lockedWhy('save settings') : !saving && changed.length === 0 && !status ? 'Nothing to save: no changes yet.' : null} />
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
