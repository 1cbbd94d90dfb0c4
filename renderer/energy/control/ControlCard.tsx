import { useCallback, useEffect, useState } from 'react';
import { api, messageOf } from '../../api.js';
import { Link } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { formatKwh, formatMoney } from '../../kit/format.js';
import { useServerClock } from '../../kit/server-clock.js';
import { formatPerKwh } from '../prices/price-words.js';
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
  /** What following the price did today (control-savings.ts). */
  today?: { chargedKwh: number; chargedPrice: number | null; peakKwh: number; peakPrice: number | null; saved: number | null };
  currency?: string;
}

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function endText(end: ControlStatus['end']): string {
  if (end.kind === 'time') return `until ${new Date(end.at).toLocaleString()}`;
  if (end.kind === 'soc') return `until the battery is at ${end.soc} %`;
  return 'until you change it';
}

/** Today's figure in words: "Today: charged 5.04 kWh from the grid at −4.0 c/kWh; …: saved A$1.10." */
function todayText(t: NonNullable<ControlStatus['today']>, currency: string): string | null {
  if (t.chargedKwh <= 0 && t.peakKwh <= 0) return null;
  const charged = t.chargedKwh > 0 ? `charged ${formatKwh(t.chargedKwh)} from the grid at ${formatPerKwh(t.chargedPrice, currency)}` : 'nothing charged from the grid yet';
  const peak = t.peakKwh > 0 ? `the battery gave the house ${formatKwh(t.peakKwh)} in the peak at ${formatPerKwh(t.peakPrice, currency)}` : 'the peak is still to come';
  return `Today: ${charged}; ${peak}${t.saved === null ? '.' : `: saved ${formatMoney(t.saved, currency)}.`}`;
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
  const clock = useServerClock();

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
          {clock?.demo && <Banner kind="info">This is the demo: battery control acts on the demo’s simulated plant, not on a real battery.</Banner>}
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
          {status.today && todayText(status.today, status.currency ?? 'AUD') && (
            <>
              <p data-testid="control-today">{todayText(status.today, status.currency ?? 'AUD')}</p>
              <p className="small muted">
                How it is worked out: the energy the battery took from the grid while the plan had it charging, at the prices then, against the energy it gave
                the house in the dearest hours it was held for, at their prices. Saved = the smaller of the two × (the peak’s average price − the charging’s).
                It does not count what the sun would have charged without the plan.
              </p>
            </>
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
