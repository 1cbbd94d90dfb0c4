import { useState } from 'react';
import { api, messageOf } from '../../api.js';

/** One entry of GET /api/control/audit (main/energy/control/audit-log.ts). */
export interface AuditEntry {
  at: string;
  kind: string;
  by: string;
  reason: string;
  writes?: Array<{ register: string; address: number; value: number; before: number | null; readBack: number | null }>;
}

const SHOWN = 200;

function writeText(w: NonNullable<AuditEntry['writes']>[number]): string {
  const before = w.before === null ? '' : `, was ${w.before}`;
  const back = w.readBack === null ? ', not written' : `, read back ${w.readBack}`;
  return `${w.address} = ${w.value}${before}${back}`;
}

/**
 * Every decision and write of battery control (the audit log), opened on the control card: time,
 * who, what, and each register with its value, the value before and the read-back; the whole log
 * as a download.
 */
export function AuditList() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async () => {
    try {
      setEntries((await api.get<{ entries: AuditEntry[] }>(`/api/control/audit?limit=${SHOWN}`)).entries);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <details
      data-testid="audit-all"
      onToggle={(e) => {
        if ((e.currentTarget as HTMLDetailsElement).open) void load();
      }}
    >
      <summary>Every decision and write</summary>
      {error && <p className="error">{error}</p>}
      {entries && entries.length === 0 && <p className="small muted">Nothing decided yet.</p>}
      {entries && entries.length > 0 && (
        <ol className="small" data-testid="audit-entries">
          {entries.map((e, i) => (
            <li key={`${e.at}-${i}`}>
              {new Date(e.at).toLocaleString()} · {e.kind} · by {e.by}: {e.reason}
              {e.writes && e.writes.length > 0 && (
                <ul>
                  {e.writes.map((w) => (
                    <li key={w.address}>
                      {w.register} ({writeText(w)})
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      <p className="small">
        {entries && entries.length >= SHOWN ? `The newest ${SHOWN} are shown here. ` : ''}
        <a href="/api/control/audit/export" download data-testid="audit-download">
          Download the whole audit log (control-audit.jsonl)
        </a>
      </p>
    </details>
  );
}
