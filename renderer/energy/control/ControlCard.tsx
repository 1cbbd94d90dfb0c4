import { useCallback, useEffect, useState } from 'react';
import { api, messageOf } from '../../api.js';
import { Link } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import type { JsonSchema } from '../settings/schema.js';
import { AuditList, type AuditEntry } from './AuditList.js';
import { ReserveSocs } from './ReserveSocs.js';

/** GET /api/control (docs/battery-control.md). */
interface ControlStatus {
  enabled: boolean;
  dryRun: boolean;
  mode: { mode: string };
  since: string;
  description: string;
  end: { kind: 'time'; at: string } | { kind: 'soc'; soc: number } | { kind: 'none' };
  stale: boolean;
  backedOff: { since: string; message: string } | null;
  remoteControl: boolean;
  message: string;
  nextStep: { start: string; reason: string } | null;
}

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function endText(end: ControlStatus['end']): string {
  if (end.kind === 'time') return `until ${new Date(end.at).toLocaleString()}`;
  if (end.kind === 'soc') return `until the battery is at ${end.soc} %`;
  return 'until you change it';
}

/**
 * The dashboard's battery control card: the active mode in words, its end, the next planned step,
 * the kill switch (back to Automatic at once) and the latest decisions. Its title is the setting's
 * label from the settings schema.
 */
export function ControlCard() {
  const [status, setStatus] = useState<ControlStatus | null>(null);
  const [title, setTitle] = useState('Battery control');
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [note, setNote] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus(await api.get<ControlStatus>('/api/control'));
      setEntries((await api.get<{ entries: AuditEntry[] }>('/api/control/audit?limit=3')).entries);
    } catch {
      // the card stays as it was; the dashboard says when the bridge is away
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), 15_000);
    api
      .get<JsonSchema>('/api/settings/schema')
      .then((s) => {
        const label = s.properties?.control?.properties?.enabled?.label;
        if (label) setTitle(label);
      })
      .catch(() => undefined);
    return () => clearInterval(timer);
  }, [load]);

  const kill = async () => {
    setBusy(true);
    try {
      const r = await api.post<{ message: string }>('/api/control/kill');
      setNote({ kind: 'ok', text: r.message });
    } catch (err) {
      setNote({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
      void load();
    }
  };

  if (!status) return null;
  return (
    <Card title={title} id="control">
      {!status.enabled ? (
        <p data-testid="control-off">
          Off: the plant runs on its own. The owner can turn it on in <Link href="/settings">Settings</Link>.
        </p>
      ) : (
        <>
          {status.dryRun && <Banner kind="info">Dry run: the plan and its writes are shown and logged, nothing is written.</Banner>}
          {status.stale && <Banner kind="warn">No fresh reading from the gateway: nothing is written until it answers.</Banner>}
          {status.backedOff && <Banner kind="warn">{status.backedOff.message}</Banner>}
          <p data-testid="control-mode">
            <strong>{status.description}</strong>
          </p>
          <p className="small muted" data-testid="control-end">
            Since {time(status.since)}, {endText(status.end)}.
          </p>
          {status.nextStep && (
            <p className="small" data-testid="control-next">
              Next ({time(status.nextStep.start)}): {status.nextStep.reason}
            </p>
          )}
          <p>
            <button type="button" className="button danger" onClick={() => void kill()} disabled={busy} data-testid="control-kill">
              Back to Automatic now
            </button>
          </p>
          {note && <Banner kind={note.kind}>{note.text}</Banner>}
          {entries.length > 0 && (
            <ul className="small muted" data-testid="control-audit">
              {entries.map((e) => (
                <li key={`${e.at}-${e.kind}`}>
                  {time(e.at)}: {e.reason}
                </li>
              ))}
            </ul>
          )}
          <AuditList />
          <h3>Backup and cut-off SOCs</h3>
          <ReserveSocs />
        </>
      )}
    </Card>
  );
}
