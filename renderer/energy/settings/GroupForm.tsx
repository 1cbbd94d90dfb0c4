import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { applyRaws, changedMembers, schemaAt, setIn } from './form-values.js';
import { fieldInfo, fieldMessage, humanize, type JsonSchema } from './schema.js';
import { SettingField, type FieldEditor } from './SettingField.js';

export interface SaveResult {
  settings: Record<string, unknown>;
  restartRequired: string[];
}

interface Props {
  group: string;
  schema: JsonSchema;
  root: JsonSchema;
  value: unknown;
  locked: boolean;
  restartRequired: string[];
  onSaved: (r: SaveResult) => void;
  onLocked: () => void;
  /** Extra controls (test buttons) that see the values being edited. */
  tools?: (draft: Record<string, unknown>) => React.ReactNode;
  /** Purpose-built controls by field path; their errors are keyed by the server's full field path. */
  editors?: Record<string, FieldEditor>;
}

/** One settings area as a form: edits stay local until Save sends the changed members. */
export function GroupForm({ group, schema, root, value, locked, restartRequired, onSaved, onLocked, tools, editors }: Props) {
  const [draft, setDraft] = useState<unknown>(value);
  const [raws, setRaws] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ kind: 'ok' | 'error' | 'info'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setDraft(value);
    setRaws({});
  }, [value]);

  const info = fieldInfo(schema);
  const headingId = `settings-${group}`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { value: next, errors: local } = applyRaws(draft, raws, (p) => schemaAt(root, p));
    setErrors(local);
    if (Object.keys(local).length) return setStatus({ kind: 'error', text: 'Fix the fields marked below.' });
    const changed = changedMembers(value, next);
    if (changed === undefined) return setStatus({ kind: 'info', text: 'Nothing changed.' });
    setSaving(true);
    setStatus(null);
    try {
      const r = await api.put<SaveResult>('/api/settings', { [group]: changed });
      const mine = r.restartRequired.filter((p) => p === group || p.startsWith(`${group}.`));
      setStatus({ kind: 'ok', text: mine.length ? `Saved. Restart the bridge to apply: ${mine.join(', ')}.` : 'Saved. Changes apply now.' });
      onSaved(r);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid' && err.field) {
        const control = controlFor(root, err.field);
        setErrors({ [editors && Object.keys(editors).some((k) => err.field === k || err.field!.startsWith(`${k}.`)) ? err.field : control]: fieldMessage(err.message, err.field) });
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
    hiddenIsSet: (draft as { tokenSet?: boolean } | undefined)?.tokenSet === true,
    onValue: (path: string, v: unknown) =>
      setDraft((d: unknown) => {
        const parts = path.split('.').slice(1);
        return parts.length ? setIn(d, parts, v) : v;
      }),
    onRaw: (path: string, text: string) => setRaws((r) => ({ ...r, [path]: text })),
    editors,
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby={headingId} data-testid={`settings-${group}`} noValidate>
      <h2 id={headingId}>{humanize(group)}</h2>
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
      {status && (
        <Banner kind={status.kind} testId={`status-${group}`}>
          {status.text}
        </Banner>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={locked || saving}>
          {saving ? 'Saving…' : `Save ${humanize(group).toLowerCase()}`}
        </button>
        {tools?.((applyRaws(draft, raws, (p) => schemaAt(root, p)).value ?? {}) as Record<string, unknown>)}
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
