import { Field } from '../../kit/Field.js';
import { OWNER_ONLY_NOTE } from '../../kit/owner-only.js';
import { labelOf, unitOf } from './plain.js';
import { fieldInfo, type JsonSchema } from './schema.js';

export interface FieldProps {
  name: string;
  path: string;
  schema: JsonSchema;
  value: unknown;
  /** The edited text of number and JSON fields by path (kept as typed, converted on save). */
  raws: Record<string, string>;
  errors: Record<string, string>;
  restartPending: boolean;
  disabled: boolean;
  hiddenIsSet?: boolean;
  /** Field paths this browser may not change (opened on another device without a session): read-only, saying why. */
  ownerOnly?: readonly string[];
  onValue: (path: string, value: unknown) => void;
  onRaw: (path: string, raw: string) => void;
  /** Purpose-built controls by field path (time-of-use windows, alert rules, place search). */
  editors?: Record<string, FieldEditor>;
}

export interface EditorProps {
  path: string;
  /** The field's node of the server's schema: its label and hint, and its items' (plain.ts itemField). */
  schema: JsonSchema;
  value: unknown;
  /** Server messages by field path (`tariff.windows.1.start`). */
  errors: Record<string, string>;
  disabled: boolean;
  /** Sets any field of the group by full path. */
  set: (path: string, value: unknown) => void;
  /** Sets the edited text of a plain number field by full path. */
  setRaw: (path: string, raw: string) => void;
}
export type FieldEditor = (p: EditorProps) => React.ReactNode;

const isTimeOfDay = (s: JsonSchema) => typeof s.pattern === 'string' && s.pattern.includes('2[0-3]):[0-5]');

function Badges({ schema, restartPending }: { schema: JsonSchema; restartPending: boolean }) {
  return (
    <>
      {schema.applies === 'restart' && <span className={`badge${restartPending ? ' restart' : ''}`}>{restartPending ? 'restart required' : 'applies after restart'}</span>}
    </>
  );
}

/** One setting, rendered from its schema node: checkbox, select, number, text, nested group or JSON. */
export function SettingField(props: FieldProps) {
  const { path, schema, value, onValue, onRaw } = props;
  const readOnly = props.ownerOnly?.includes(path) === true;
  const disabled = props.disabled || readOnly;
  const raw = props.raws[path];
  const error = props.errors[path];
  const restartPending = props.restartPending;
  const info = fieldInfo(schema);
  const s = info.schema;
  const label = labelOf(path, schema);
  const unit = unitOf(path);
  const badge = <Badges schema={schema} restartPending={restartPending} />;
  const hint = readOnly ? [s.description, OWNER_ONLY_NOTE].filter(Boolean).join(' ') : s.description;
  const editor = props.editors?.[path];
  if (editor) {
    return (
      <>
        {editor({ path, schema, value, errors: props.errors, disabled, set: onValue, setRaw: onRaw })}
        {readOnly && <p className="small muted" data-testid="owner-only-note">{OWNER_ONLY_NOTE}</p>}
      </>
    );
  }

  switch (info.kind) {
    case 'object':
      return (
        <fieldset disabled={disabled}>
          <legend>{label}</legend>
          {Object.entries(s.properties!).map(([k, sub]) => (
            <SettingField
              key={k}
              {...props}
              name={k}
              path={`${path}.${k}`}
              schema={sub}
              value={(value as Record<string, unknown> | undefined)?.[k]}
            />
          ))}
        </fieldset>
      );
    case 'boolean':
      return (
        <Field label={label} hint={hint} error={error} badge={badge} checkbox>
          {(p) => <input type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => onValue(path, e.target.checked)} {...p} />}
        </Field>
      );
    case 'enum':
      return (
        <Field label={label} hint={hint} error={error} badge={badge}>
          {(p) => (
            <select value={String(value ?? '')} disabled={disabled} onChange={(e) => onValue(path, e.target.value)} {...p}>
              {info.nullable && <option value="">—</option>}
              {s.enum!.map((o) => (
                <option key={String(o)} value={String(o)}>
                  {String(o)}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    case 'integer':
    case 'number':
      return (
        <Field label={label} hint={[hint, info.nullable && !/\bblank\b/i.test(hint ?? '') ? 'Leave blank for automatic.' : ''].filter(Boolean).join(' ') || undefined} error={error} badge={badge}>
          {(p) => (
            <span className="with-unit">
              <input
                type="text"
                inputMode="decimal"
                value={raw ?? (typeof value === 'number' ? String(Math.round((value / (unit?.factor ?? 1)) * 10_000) / 10_000) : value === null || value === undefined ? '' : String(value))}
                disabled={disabled}
                onChange={(e) => onRaw(path, e.target.value)}
                {...p}
              />
              {unit && <span className="unit">{unit.symbol}</span>}
            </span>
          )}
        </Field>
      );
    case 'string':
      if (s.secret === 'hidden') {
        return (
          <Field label={label} hint={hint} error={error} badge={badge}>
            {(p) => (
              <input
                type="password"
                autoComplete="off"
                placeholder={props.hiddenIsSet ? 'set (type to replace)' : 'not set'}
                value={String(value ?? '')}
                disabled={disabled}
                onChange={(e) => onValue(path, e.target.value)}
                {...p}
              />
            )}
          </Field>
        );
      }
      return (
        <Field label={label} hint={hint} error={error} badge={badge}>
          {(p) => <input type={isTimeOfDay(s) ? 'time' : 'text'} value={String(value ?? '')} disabled={disabled} onChange={(e) => onValue(path, e.target.value)} {...p} />}
        </Field>
      );
    default:
      return (
        <Field label={label} hint={hint} error={error} badge={badge}>
          {(p) => <textarea rows={Math.min(12, Math.max(3, (raw ?? JSON.stringify(value ?? null, null, 2)).split('\n').length))} value={raw ?? JSON.stringify(value ?? null, null, 2)} disabled={disabled} onChange={(e) => onRaw(path, e.target.value)} spellCheck={false} {...p} />}
        </Field>
      );
  }
}
