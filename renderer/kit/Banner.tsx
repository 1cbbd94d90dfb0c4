import type { ReactNode } from 'react';

/** A status line: warn and error are announced to screen readers as they appear. */
export function Banner({ kind, children, testId }: { kind: 'info' | 'warn' | 'error' | 'ok'; children: ReactNode; testId?: string }) {
  return (
    <div className={`banner ${kind}`} role={kind === 'error' || kind === 'warn' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}
