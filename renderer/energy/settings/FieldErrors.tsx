import { useId } from 'react';
import type { FieldWords } from './plain.js';
import type { JsonSchema } from './schema.js';

type Obj = Record<string, unknown>;

/** The server's message for the list entry at `path`, if it refused one. */
export function Err({ errors, path }: { errors: Obj; path: string }) {
  const e = errors[path];
  return typeof e === 'string' ? (
    <span className="error" role="alert">
      {e}
    </span>
  ) : null;
}

/** Messages for a path and everything under it (a refused entry shows at the list). */
function errorsUnder(errors: Obj, path: string): string[] {
  return Object.entries(errors)
    .filter(([k, v]) => (k === path || k.startsWith(`${path}.`)) && typeof v === 'string')
    .map(([, v]) => v as string);
}

export function ListErrors({ errors, path }: { errors: Obj; path: string }) {
  const list = errorsUnder(errors, path);
  return list.length ? (
    <span className="error" role="alert">
      {list.join(' ')}
    </span>
  ) : null;
}

/**
 * A labelled control of a list editor: its label, unit and hint (from the server's schema: no label
 * lives twice) and the server's message for its path. `children` gets the control's id and the id
 * of its hint for `aria-describedby`.
 */
export function Labelled({ field, children, errors, path }: { field: FieldWords; children: (id: string, describedBy?: string) => React.ReactNode; errors: Obj; path: string }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      {children(id, field.hint ? hintId : undefined)}
      {field.unit && <span className="unit">{field.unit}</span>}
      {field.hint && (
        <span className="hint" id={hintId}>
          {field.hint}
        </span>
      )}
      <Err errors={errors} path={path} />
    </div>
  );
}

/** A list editor's legend and hint: its schema node's label and description (the server's words). */
export function ListHeading({ schema }: { schema: JsonSchema }) {
  return (
    <>
      <legend>{schema.label}</legend>
      {schema.description && <p className="small muted">{schema.description}</p>}
    </>
  );
}

/** Typed text → number; blank → null; anything else is sent as typed so the server names it. */
export const toNumber = (t: string): number | string | null => (t.trim() === '' ? null : Number.isFinite(Number(t)) ? Number(t) : t);
export const numText = (v: unknown) => (v === null || v === undefined ? '' : String(v));
