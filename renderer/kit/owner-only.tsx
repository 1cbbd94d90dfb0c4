import type { ReactNode } from 'react';

/**
 * What a field that names a place on the PC or how the app listens says when the page is open on
 * another device (the server refuses the change with the same words: main/core/owner-only.ts).
 */
export const OWNER_ONLY_NOTE = 'Change this from the PC itself, or set a passcode and unlock.';

/** A field's hint with the owner-only note after it, when the field is read-only here. */
export function withOwnerNote(hint: ReactNode, readOnly: boolean): ReactNode {
  if (!readOnly) return hint;
  return (
    <>
      {hint} <strong data-testid="owner-only-note">{OWNER_ONLY_NOTE}</strong>
    </>
  );
}
