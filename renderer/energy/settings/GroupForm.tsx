import { useEffect, useId, useState, type FormEvent } from 'react';
import { WhyDisabled } from '../../kit/SectionedPage.js';
import { api, ApiError, messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { applyRaws, changedMembers, getIn, schemaAt, setIn } from './form-values.js';
import { labelOf, plainMessage } from './plain.js';
import { fieldInfo, humanize, type JsonSchema } from './schema.js';
import { SettingField, type FieldEditor } from './SettingField.js';
import type { SectionProps } from './sections.js';

export interface SaveResult {
  settings: Record<string, unknown>;
  restartRequired: string[];
}

interface Props extends SectionProps {
  /** Extra controls (test buttons) that see the values being edited. */
  tools?: (draft: Record<string, unknown>) => React.ReactNode;
  /** Purpose-built controls by field path; their errors are keyed by the server's full field path. */
  editors?: Record<string, FieldEditor>;
}

/** One settings area as a form: edits stay local until Save sends the changed members. */
export function GroupForm({ group, schema, root, value, locked, ownerOnly, restartRequired, onSaved, onLocked, tools, editors }: Props) {
  const [draft, setDraft] = useState<unknown>(value);
  const [raws, setRaws] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ kind: 'ok' | 'error' | 'info'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  // Another section's save hands every section a fresh copy of its values: only a real change to
  // this section's values (its own save, a reset) replaces what is being edited here.
  const valueKey = JSON.stringify(value ?? null);
  useEffect(() => {
    setDraft(value);
    setRaws({});
  }, [valueKey]);

  const whyId = useId();
  const info = fieldInfo(schema);
  const headingId = `settings-${group}`;
  // Save is offered only when something differs from what the bridge has.
  const edited = applyRaws(draft, raws, (p) => schemaAt(root, p));
  const dirty = changedMembers(value, edited.value) !== undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { value: next, errors: local } = edited;
    setErrors(local);
    if (Object.keys(local).length) return setStatus({ kind: 'error', text: 'Fix the fields marked below.' });
    const changed = changedMembers(value, next);
    if (changed === undefined) return setStatus({ kind: 'info', text: 'Nothing changed.' });
    setSaving(true);
    setStatus(null);
    setErrors({});
    try {
      const r = await api.put<SaveResult>('/api/settings', { [group]: changed });
      const mine = r.restartRequired.filter((p) => p === group || p.startsWith(`${group}.`));
      setStatus({ kind: 'ok', text: mine.length ? `Saved. Restart the bridge to apply: ${mine.map((p) => restartLabel(root, p)).join(', ')}.` : 'Saved. Changes apply now.' });
      onSaved(r);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid' && err.field) {
        const control = controlFor(root, err.field);
        const message = plainMessage(err.field, schemaAt(root, err.field), getIn({ [group]: next }, err.field.split('.')), err.message);
        setErrors({ [editors && Object.keys(editors).some((k) => err.field === k || err.field!.startsWith(`${k}.`)) ? err.field : control]: message });
        setStatus({ kind: 'error', text: 'The bridge refused a value; see the message by the field.' });
      } else if (err instanceof ApiError && err.code === 'locked') {
        setStatus({ kind: 'error', text: 'Settings are locked. Unlock with the passcode to change them.' });
        onLocked();
      } else {
        setStatus({ kind: 'error', text: messageOf(err) });
      }
    } finally {
      setSaving(false);
    }
  };

  const common = {
    raws,
    errors,
    disabled: locked || saving,
    hiddenIsSet: (draft as { tokenSet?: boolean } | undefined)?.tokenSet === true || (draft as { passwordSet?: boolean } | undefined)?.passwordSet === true || (draft as { amberTokenSet?: boolean } | undefined)?.amberTokenSet === true,
    onValue: (path: string, v: unknown) =>
      setDraft((d: unknown) => {
        const parts = path.split('.').slice(1);
        return parts.length ? setIn(d, parts, v) : v;
      }),
    onRaw: (path: string, text: string) => setRaws((r) => ({ ...r, [path]: text })),
    editors,
    ownerOnly,
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby={headingId} data-testid={`settings-${group}`} noValidate>
      <h2 id={headingId} tabIndex={-1}>
        {humanize(group)}
        {dirty && !saving && <span className="badge unsaved">unsaved changes</span>}
      </h2>
      {schema.description && <p className="small muted">{schema.description}</p>}
      {info.kind === 'object' ? (
        Object.entries(info.schema.properties!).map(([k, sub]) => (
          <SettingField
            key={k}
            {...common}
            name={k}
            path={`${group}.${k}`}
            schema={sub}
            value={(draft as Record<string, unknown> | undefined)?.[k]}
            restartPending={restartRequired.includes(`${group}.${k}`)}
          />
        ))
      ) : (
        <SettingField {...common} name={group} path={group} schema={schema} value={draft} restartPending={restartRequired.includes(group)} />
      )}
      {/* The outcome sits in the sticky save bar itself, so the bar never covers it. */}
      <div className="row save-bar" data-testid="save-bar">
        {status && (
          <div className="save-status" data-testid={`status-${group}`}>
            <Banner kind={status.kind}>{status.text}</Banner>
          </div>
        )}
        <button type="submit" className="primary" disabled={locked || saving || !dirty} aria-describedby={locked || !dirty ? whyId : undefined}>
          {saving ? 'Saving…' : `Save ${saveName(humanize(group))}`}
        </button>
        <WhyDisabled id={whyId} why={saving ? null : locked ? 'Unlock the settings with the passcode to change them.' : !dirty ? 'Nothing to save: no changes yet.' : null} />
        {dirty && (
          <button type="button" disabled={saving} onClick={() => { setDraft(value); setRaws({}); setErrors({}); setStatus(null); }}>
            Undo changes
          </button>
        )}
        {tools?.((edited.value ?? {}) as Record<string, unknown>)}
      </div>
    </form>
  );
}

/** The rendered control a server field path belongs to ("alerts.0.webhookUrl" → the alerts JSON box). */
function controlFor(root: JsonSchema, field: string): string {
  const parts = field.split('.');
  for (let i = 1; i <= parts.length; i++) {
    const path = parts.slice(0, i).join('.');
    const node = schemaAt(root, path);
    if (!node) return parts.slice(0, Math.max(1, i - 1)).join('.');
    if (fieldInfo(node).kind === 'json') return path;
  }
  return field;
}

/** The section's name inside "Save …": "gateway", "smart-home assistant", but "HomeKit" and "MQTT (Home Assistant)" as written. */
export function saveName(title: string): string {
  return /[A-Z]/.test(title.slice(1)) ? title : title.toLowerCase();
}

/** A field waiting for a restart, named as its form names it (the schema's label), never by its path. */
export function restartLabel(root: JsonSchema, path: string): string {
  return path.includes('.') ? labelOf(path, schemaAt(root, path)) : humanize(path);
}
