import type { Db } from '../../core/sqlite.js';

export type SyncTrigger = 'cron' | 'manual' | 'show';
export type SyncRunStatus = 'running' | 'ok' | 'partial' | 'error';

export interface SyncSummary {
  downloaded: number;
  failed: number;
  skipped: number;
  /** Items seen in the matched show folders. */
  seen: number;
  boxes: number;
  error?: string;
  /** Items skipped because they would not fit on the disk, and the first such reason. */
  no_space?: number;
  space_error?: string;
  /** Rows that followed their recording to a new box id, and rows moved aside because their id now names another recording. */
  renumbered?: number;
  ids_reused?: number;
  /** Stale `.partial` files removed by housekeeping (their items will never resume). */
  partials_removed?: number;
  /** Why a run did nothing, for the user (e.g. no followed shows). */
  note?: string;
  /** The media-server library refresh after a run that downloaded something, and why it failed. */
  media_server_refresh?: 'ok' | 'failed' | 'not_configured';
  media_server_error?: string;
  /** Box copies deleted through the cloud after download, failed deletes (first error with its stage), and copies kept by the gates. */
  box_deleted?: number;
  box_delete_failed?: number;
  box_delete_error?: string;
  box_delete_kept?: number;
}

export interface SyncRun {
  id: number;
  trigger: SyncTrigger;
  show_id: number | null;
  started_at: number;
  finished_at: number | null;
  status: SyncRunStatus;
  summary: SyncSummary | null;
}

interface RunDbRow extends Omit<SyncRun, 'summary'> {
  summary_json: string | null;
}

const fromDb = (r: RunDbRow): SyncRun => {
  const { summary_json, ...rest } = r;
  return { ...rest, summary: summary_json ? (JSON.parse(summary_json) as SyncSummary) : null };
};

/** History is capped so the state file does not grow without bound. */
export const SYNC_HISTORY_CAP = 500;

export interface SyncRunsStore {
  start(trigger: SyncTrigger, showId: number | null, now: number): SyncRun;
  finish(id: number, status: Exclude<SyncRunStatus, 'running'>, summary: SyncSummary, now: number): SyncRun;
  get(id: number): SyncRun | undefined;
  /** The newest `limit` runs by start time (newest first). */
  list(limit: number): SyncRun[];
  /** Deletes every finished run; a running one stays. Returns how many went. */
  clearFinished(): number;
  /** The newest finished run (health reporting). */
  lastFinished(): SyncRun | undefined;
  /**
   * Saves a running run's counters as they grow, so a run whose process is killed mid-download
   * keeps the counts it reached.
   */
  progress(id: number, summary: SyncSummary): void;
  /** Runs left `running` by a process that died are closed as `error` at start, keeping their counters. */
  closeInterrupted(now: number): number;
}

export function createSyncRunsStore(db: Db): SyncRunsStore {
  const insert = db.prepare(`INSERT INTO sync_runs (trigger, show_id, started_at, status) VALUES (?, ?, ?, 'running')`);
  const finishStmt = db.prepare('UPDATE sync_runs SET status = ?, summary_json = ?, finished_at = ? WHERE id = ?');
  const getStmt = db.prepare('SELECT * FROM sync_runs WHERE id = ?');
  // Newest first by when they ran: imported runs get ids after runs already here, but ran before them.
  const listStmt = db.prepare('SELECT * FROM sync_runs ORDER BY started_at DESC, id DESC LIMIT ?');
  const clearStmt = db.prepare(`DELETE FROM sync_runs WHERE status != 'running'`);
  const capStmt = db.prepare(`DELETE FROM sync_runs WHERE id <= (SELECT id FROM sync_runs ORDER BY id DESC LIMIT 1 OFFSET ?)`);
  const lastFinishedStmt = db.prepare(`SELECT * FROM sync_runs WHERE status != 'running' ORDER BY started_at DESC, id DESC LIMIT 1`);
  const progressStmt = db.prepare(`UPDATE sync_runs SET summary_json = ? WHERE id = ? AND status = 'running'`);
  const runningStmt = db.prepare(`SELECT * FROM sync_runs WHERE status = 'running'`);
  const interrupted = db.prepare(`UPDATE sync_runs SET status = 'error', finished_at = ?, summary_json = ? WHERE id = ?`);

  const get = (id: number) => {
    const r = getStmt.get(id) as RunDbRow | undefined;
    return r ? fromDb(r) : undefined;
  };
  return {
    start(trigger, showId, now) {
      const info = insert.run(trigger, showId, now);
      capStmt.run(SYNC_HISTORY_CAP);
      return get(Number(info.lastInsertRowid))!;
    },
    finish(id, status, summary, now) {
      finishStmt.run(status, JSON.stringify(summary), now, id);
      return get(id)!;
    },
    get,
    list: (limit) => (listStmt.all(limit) as RunDbRow[]).map(fromDb),
    clearFinished: () => clearStmt.run().changes,
    lastFinished() {
      const r = lastFinishedStmt.get() as RunDbRow | undefined;
      return r ? fromDb(r) : undefined;
    },
    progress(id, summary) {
      progressStmt.run(JSON.stringify(summary), id);
    },
    closeInterrupted(now) {
      const rows = (runningStmt.all() as RunDbRow[]).map(fromDb);
      return db.transaction(() => {
        for (const r of rows) {
          const reached: SyncSummary = { downloaded: 0, failed: 0, skipped: 0, seen: 0, boxes: 0, ...r.summary };
          const error = 'interrupted: the service stopped during this run';
          interrupted.run(now, JSON.stringify({ ...reached, error: reached.error ? `${error}; ${reached.error}` : error }), r.id);
        }
        return rows.length;
      })();
    },
  };
}
