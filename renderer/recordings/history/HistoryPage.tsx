import { useState } from 'react';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { formatTime } from '../../kit/format.js';
import { serverNow, useServerClock } from '../../kit/server-clock.js';
import { messageOf, rec } from '../api.js';
import { episodeLabel, formatInZone } from '../format.js';
import { ProgressBar } from '../ProgressBar.js';
import { announceSync } from '../sync-status.js';
import { SyncNowButton } from '../SyncNow.js';
import type { Recording, SyncRun, SyncState, SyncSummary } from '../types.js';
import { useStreamedPoll } from '../use-progress-stream.js';
import { useServerSettings } from '../use-server.js';
import { LockedWhy, useLocked } from '../locked.js';

interface HistoryData {
  runs: SyncRun[];
  sync: SyncState;
  /** Every row; the ones with live progress are shown. */
  recordings: Recording[];
}

const load = async (): Promise<HistoryData> => {
  const askedAt = Date.now();
  const [runs, sync, list] = await Promise.all([
    rec.get<{ runs: SyncRun[] }>('/api/sync-runs?limit=100'),
    rec.get<SyncState>('/api/sync'),
    rec.get<{ recordings: Recording[] }>('/api/recordings'),
  ]);
  // The header's chip reads the same answer, so it never says "Idle" beside a running sync.
  announceSync(sync, askedAt);
  return { runs: runs.runs, sync, recordings: list.recordings };
};
const isLive = (d: HistoryData) => d.sync.running !== null || d.recordings.some((r) => r.progress);

const TRIGGER: Record<SyncRun['trigger'], string> = { cron: 'schedule', manual: 'Sync now', show: 'one show' };

function duration(run: SyncRun): string {
  // A running run's time so far, on the service's clock (its start is on it).
  const end = run.finished_at ? Date.parse(run.finished_at) : serverNow();
  const s = Math.max(0, Math.round((end - Date.parse(run.started_at)) / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Sync runs with trigger, times, status and counters; "Sync now" with the live progress of the running one. */
export function HistoryPage() {
  // Progress comes as events; the lists are read again when a row changes or a sync starts or ends.
  const live = useStreamedPoll(load, isLive);
  const { view } = useServerSettings();
  useServerClock();
  const tz = view?.tz;
  const locked = useLocked();
  const [message, setMessage] = useState<string | null>(null);
  const d = live.data;
  const active = (d?.recordings ?? []).flatMap((r) => {
    const progress = live.progressOf(r);
    return progress ? [{ ...r, progress }] : [];
  });
  const running = d?.sync.running ?? null;

  const clear = async () => {
    setMessage(null);
    try {
      const res = await rec.del<{ deleted: number }>('/api/sync-runs');
      setMessage(`Removed ${res.deleted} finished run${res.deleted === 1 ? '' : 's'}.`);
      void live.refresh();
    } catch (err) {
      setMessage(messageOf(err));
    }
  };

  return (
    <>
      <div className="spread page-head">
        <h1>Sync history</h1>
        <SyncNowButton running={running !== null} onStarted={() => void live.refresh()} />
      </div>
      {live.error && <Banner kind="error">{live.error}</Banner>}
      <Card title={running ? `Sync #${running.id} running` : 'No sync running'} id="sync-live">
        <div data-testid="sync-live">
          {running ? (
            <p className="muted small">
              Started {formatInZone(running.started_at, tz)} by {TRIGGER[running.trigger]} · {duration(running)} so far
            </p>
          ) : (
            <p className="muted small">
              {d?.sync.schedule?.next_run
                ? `Next scheduled sync ${formatInZone(d.sync.schedule.next_run, d.sync.schedule.timezone)} (${d.sync.schedule.cron}, ${d.sync.schedule.timezone}).`
                : 'No scheduled sync.'}
            </p>
          )}
          {active.length > 0 && (
            <ul className="active-list" aria-label="In progress">
              {active.map((r) => {
                const name = `${r.show_title ?? ''} ${episodeLabel(r)} ${r.box_title}`.trim();
                return (
                  <li key={r.box_id} data-box-id={r.box_id}>
                    <span className="small">
                      <strong>{r.show_title}</strong> {episodeLabel(r)} {r.box_title}
                    </span>
                    <ProgressBar progress={r.progress!} name={name} />
                  </li>
                );
              })}
            </ul>
          )}
          <p className="muted small" data-testid="poll-status" data-poll-ms={live.pollMs}>
            {live.fetchedAt ? `Updated ${formatTime(live.fetchedAt)}, every ${live.pollMs / 1000} s.` : 'Loading…'}
          </p>
        </div>
      </Card>
      <Card
        title="Runs"
        id="runs"
        actions={
          <button type="button" onClick={() => void clear()} disabled={!d || d.runs.every((r) => r.status === 'running') || locked === true} aria-describedby={locked ? 'clear-history-locked' : undefined}>
            Clear history
          </button>
        }
      >
        <LockedWhy id="clear-history-locked" locked={locked} what="clear the history" />
        {message && <p role="status" className="muted small">{message}</p>}
        {d && d.runs.length === 0 && <p className="muted">No sync has run yet.</p>}
        {d && d.runs.length > 0 && (
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Sync runs (scrolls sideways)">
            <table className="runs" data-testid="runs">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Started</th>
                  <th>Trigger</th>
                  <th>Took</th>
                  <th>Status</th>
                  <th className="num">Downloaded</th>
                  <th className="num">Failed</th>
                  <th className="num">Skipped</th>
                  <th>Notes</th>
                </tr>
              </thead>
              <tbody>
                {d.runs.map((run) => (
                  <tr key={run.id} data-run-id={run.id}>
                    <td>{run.id}</td>
                    <td>{formatInZone(run.started_at, tz)}</td>
                    <td>{TRIGGER[run.trigger] ?? run.trigger}</td>
                    <td>{duration(run)}</td>
                    <td>
                      <span className={`pill ${run.status}`}>{run.status}</span>
                    </td>
                    <td className="num">{run.summary?.downloaded ?? '—'}</td>
                    <td className="num">{run.summary?.failed ?? '—'}</td>
                    <td className="num">{run.summary?.skipped ?? '—'}</td>
                    <td className="note small">{[run.summary?.error, run.summary?.note, ...afterSyncNotes(run.summary)].filter(Boolean).join(' · ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}

/** What happened after the downloads: the media-server refresh and the deletes from the box. */
function afterSyncNotes(summary: SyncSummary | null): string[] {
  if (!summary) return [];
  const out: string[] = [];
  if (summary.media_server_refresh === 'ok') out.push('library refreshed');
  if (summary.media_server_refresh === 'failed') out.push(`library refresh failed: ${summary.media_server_error ?? 'unknown error'}`);
  if (summary.box_deleted) out.push(`${summary.box_deleted} deleted from the box`);
  if (summary.box_delete_kept) out.push(`${summary.box_delete_kept} kept on the box`);
  if (summary.box_delete_failed) out.push(`${summary.box_delete_failed} box deletes failed: ${summary.box_delete_error ?? ''}`);
  return out;
}
