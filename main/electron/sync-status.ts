import { z } from 'zod';
import type { Logger } from '../core/logger.js';
import type { ProgressEntry } from '../recordings/progress.js';
import type { RunningSync } from '../recordings/sync/engine.js';

/** A finished sync run as the tray shows it. */
export interface LastSync {
  id: number;
  status: 'ok' | 'partial' | 'error';
  finishedAt: number;
  downloaded: number;
  failed: number;
  skipped: number;
  error: string | null;
  note: string | null;
}

/** What a running sync is doing right now (from the live progress registry). */
export interface SyncActivity {
  running: boolean;
  /** Recordings with a live progress entry. */
  active: number;
  /** Mean percent over entries that report one, else null. */
  percent: number | null;
  phase: ProgressEntry['phase'] | null;
}

/** One run of `GET /api/sync-runs` (the service's own history view), parsed defensively. */
const runSchema = z.object({
  id: z.number().int(),
  status: z.enum(['running', 'ok', 'partial', 'error']),
  finished_at: z.string().nullable(),
  summary: z
    .object({
      downloaded: z.number().default(0),
      failed: z.number().default(0),
      skipped: z.number().default(0),
      error: z.string().optional(),
      note: z.string().optional(),
    })
    .nullable(),
});
const runsSchema = z.object({ runs: z.array(z.unknown()) });

/** The newest finished run in a `GET /api/sync-runs` body (newest first), or null. */
export function latestFinishedRun(body: unknown): LastSync | null {
  const parsed = runsSchema.safeParse(body);
  if (!parsed.success) return null;
  for (const raw of parsed.data.runs) {
    const r = runSchema.safeParse(raw);
    if (!r.success || r.data.status === 'running') continue;
    const s = r.data.summary;
    return {
      id: r.data.id,
      status: r.data.status,
      finishedAt: r.data.finished_at ? Date.parse(r.data.finished_at) : Number.NaN,
      downloaded: s?.downloaded ?? 0,
      failed: s?.failed ?? 0,
      skipped: s?.skipped ?? 0,
      error: s?.error ?? null,
      note: s?.note ?? null,
    };
  }
  return null;
}

export interface SyncStatusDeps {
  /** The service's engine (`start` throws 409 while a run is going). */
  engine: { start(trigger: 'manual'): RunningSync; current(): RunningSync | null };
  progress: { snapshot(): Map<string, ProgressEntry> };
  /** The newest finished run from the service's history. */
  latestRun(): Promise<LastSync | null>;
  /** The menu should be rebuilt. */
  onChange(): void;
  /** A run finished that the tray had not reported yet (called once per run). */
  onFinished(run: LastSync): void;
  logger: Logger;
}

/** Ticks between history reads while idle: catches runs too short to be seen running. */
const IDLE_REFRESH_TICKS = 15;

/**
 * Follows the recording sync for the tray: starts "Sync now", notices runs started elsewhere (the
 * schedule, the Recordings page), and reports each finished run exactly once.
 */
export function createSyncStatus(deps: SyncStatusDeps) {
  let last: LastSync | null = null;
  let attachedRunId: number | null = null;
  let wasRunning = false;
  let idleTicks = 0;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let initialised = false;

  const refresh = async () => {
    let latest: LastSync | null;
    try {
      latest = await deps.latestRun();
    } catch (err) {
      deps.logger.warn({ err }, 'tray: could not read the sync history');
      return;
    }
    if (stopped || !latest || (last && latest.id <= last.id)) return;
    last = latest;
    // The run already in the history at start-up is shown, not announced.
    if (initialised) deps.onFinished(latest);
    deps.onChange();
  };
  const attach = (running: RunningSync) => {
    if (attachedRunId === running.run.id) return;
    attachedRunId = running.run.id;
    void running.done
      .catch(() => undefined)
      .then(() => refresh())
      .finally(() => {
        wasRunning = false;
        deps.onChange();
      });
  };

  return {
    /** Reads the last finished run (no notification for it) and starts following. */
    async init(tickMs = 2000): Promise<void> {
      await refresh();
      initialised = true;
      timer = setInterval(() => void this.tick(), tickMs);
      timer.unref();
    },
    /** One look at the engine: attach to a run started elsewhere, refresh progress, re-read history now and then. */
    async tick(): Promise<void> {
      if (stopped) return;
      const cur = deps.engine.current();
      if (cur) {
        idleTicks = 0;
        wasRunning = true;
        attach(cur);
        deps.onChange(); // progress moved
        return;
      }
      if (wasRunning) return; // the run's own completion handler refreshes
      if (++idleTicks >= IDLE_REFRESH_TICKS) {
        idleTicks = 0;
        await refresh();
      }
    },
    /** Starts a manual sync unless one runs; returns whether it started. */
    syncNow(): boolean {
      if (stopped || deps.engine.current()) return false;
      let running: RunningSync;
      try {
        running = deps.engine.start('manual');
      } catch (err) {
        deps.logger.warn({ err }, 'tray: sync could not start');
        return false;
      }
      wasRunning = true;
      attach(running);
      deps.onChange();
      return true;
    },
    last: () => last,
    activity(): SyncActivity {
      const running = !stopped && deps.engine.current() !== null;
      if (!running) return { running: false, active: 0, percent: null, phase: null };
      const entries = [...deps.progress.snapshot().values()];
      const withPercent = entries.filter((e) => e.percent !== null);
      const percent = withPercent.length ? withPercent.reduce((a, e) => a + e.percent!, 0) / withPercent.length : null;
      return { running: true, active: entries.length, percent, phase: entries[0]?.phase ?? null };
    },
    stop(): void {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}

export type SyncStatus = ReturnType<typeof createSyncStatus>;

/** "Last sync: 14:02 · ok · 3 downloaded, 0 failed" (or the error / note / "never"). */
export function lastSyncLabel(last: LastSync | null, formatTime: (ms: number) => string): string {
  if (!last) return 'Last sync: never';
  const when = Number.isFinite(last.finishedAt) ? formatTime(last.finishedAt) : 'unknown time';
  if (last.status === 'error') return `Last sync: ${when} · failed: ${truncate(last.error ?? 'unknown error', 70)}`;
  const counts = `${last.downloaded} downloaded, ${last.failed} failed`;
  const note = last.note && last.downloaded === 0 && last.failed === 0 ? ` (${truncate(last.note, 50)})` : '';
  return `Last sync: ${when} · ${last.status} · ${counts}${note}`;
}

/** The Sync now item's label while a run goes: "Syncing… 2 downloading, 45%". */
export function syncActivityLabel(a: SyncActivity): string {
  if (!a.running) return 'Sync now';
  if (a.active === 0) return 'Syncing… looking for recordings';
  const pct = a.percent === null ? '' : `, ${Math.round(a.percent)}%`;
  return `Syncing… ${a.active} ${a.phase ?? 'downloading'}${pct}`;
}

const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
