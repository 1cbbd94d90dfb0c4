import { useId } from 'react';

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

/** A labelled control of a list editor with the server's message for its path. */
export function Labelled({ label, children, errors, path }: { label: string; children: (id: string) => React.ReactNode; errors: Obj; path: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      <Err errors={errors} path={path} />
    </div>
  );
}

/** Typed text → number; blank → null; anything else is sent as typed so the server names it. */
export const toNumber = (t: string): number | string | null => (t.trim() === '' ? null : Number.isFinite(Number(t)) ? Number(t) : t);
export const numText = (v: unknown) => (v === null || v === undefined ? '' : String(v));
