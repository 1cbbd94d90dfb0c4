import { useId, type ReactNode } from 'react';

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  badge?: ReactNode;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode;
  checkbox?: boolean;
}

/** A labelled form control with its hint and the server's validation message beside it. */
export function Field({ label, hint, error, badge, children, checkbox }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const control = children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy });
  return (
    <div className={`field${checkbox ? ' checkbox' : ''}`}>
      {checkbox && control}
      <label htmlFor={id}>{label}</label>
      {/* Beside the label, not inside it: a badge ("default", "applies after restart") is not part of the field's name. */}
      {badge && <span className="field-badges">{badge}</span>}
      {!checkbox && control}
      {error && (
        <span className="error" id={errorId} role="alert">
          {error}
        </span>
      )}
      {hint && (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      )}
    </div>
  );
}
