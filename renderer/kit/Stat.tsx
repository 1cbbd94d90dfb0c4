import type { ReactNode } from 'react';

/** A big number with a label under it. */
export function Stat({ label, value, testId, children }: { label: ReactNode; value: ReactNode; testId?: string; children?: ReactNode }) {
  return (
    <div>
      <div className="stat-value" data-testid={testId}>
        {value}
      </div>
      <div className="stat-label">{label}</div>
      {children}
    </div>
  );
}
