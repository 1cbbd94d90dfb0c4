import type { SyncRunStatus, SyncSummary, SyncTrigger } from '../store/sync-runs-store.js';
import type { FetcharrSyncRow } from './fetcharr-source.js';
import { fetcharrTime } from './fetcharr-time.js';

/** Marks a sync run that came from fetcharr's history (and which of its runs), so a second import skips it. */
export interface ImportedMark {
  imported_from: 'fetcharr';
  imported_id: number;
}

/** A finished sync run as it will be stored here. */
export interface PlannedRun {
  source_id: number;
  trigger: SyncTrigger;
  /** fetcharr's show id for a one-show run (mapped when the shows are written). */
  source_show_id: number | null;
  started_at: number;
  finished_at: number | null;
  status: Exclude<SyncRunStatus, 'running'>;
  summary: SyncSummary & ImportedMark;
}

interface FetcharrSummary {
  trigger?: unknown;
  showId?: unknown;
  downloaded?: unknown;
  skipped?: unknown;
  failed?: unknown;
  errors?: unknown;
  message?: unknown;
  plex?: { triggered?: unknown; skipped?: unknown; reason?: unknown; error?: unknown; status?: unknown };
  delete?: { triggered?: unknown; deleted?: unknown; skipped?: unknown; reason?: unknown; error?: unknown; stage?: unknown; candidates?: unknown };
}

const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
const text = (v: unknown, max = 500) => (typeof v === 'string' && v ? v.slice(0, max) : undefined);

/**
 * fetcharr's `syncs` rows (status and its summary JSON) → our sync runs: trigger (`manual`,
 * `manual-single` → `show`, `cron`), counters, errors, the Plex refresh as `media_server_refresh`
 * and the box deletion as `box_deleted` / `box_delete_failed` / `box_delete_kept`. A run fetcharr
 * left `running` is closed as `error` (interrupted), as ours are at start.
 */
export function planSyncs(rows: readonly FetcharrSyncRow[]): { runs: PlannedRun[]; refused: Array<{ what: string; reason: string }> } {
  const runs: PlannedRun[] = [];
  const refused: Array<{ what: string; reason: string }> = [];
  for (const r of rows) {
    const started = fetcharrTime(r.started_at);
    if (started === null || !Number.isInteger(Number(r.id))) {
      refused.push({ what: `sync ${String(r.id).slice(0, 20)}`, reason: 'no readable start time' });
      continue;
    }
    let s: FetcharrSummary = {};
    if (r.summary_json) {
      try {
        const parsed: unknown = JSON.parse(r.summary_json);
        if (parsed && typeof parsed === 'object') s = parsed as FetcharrSummary;
      } catch {
        refused.push({ what: `sync ${r.id} summary`, reason: 'unreadable JSON: imported with its status only' });
      }
    }
    const trigger: SyncTrigger = s.trigger === 'cron' ? 'cron' : s.trigger === 'manual-single' ? 'show' : 'manual';
    const summary: SyncSummary & ImportedMark = {
      downloaded: count(s.downloaded),
      failed: count(s.failed),
      skipped: count(s.skipped),
      seen: count(s.downloaded) + count(s.failed) + count(s.skipped),
      boxes: r.status === 'error' ? 0 : 1,
      imported_from: 'fetcharr',
      imported_id: Number(r.id),
    };
    const errors = Array.isArray(s.errors) ? s.errors.filter((e): e is string => typeof e === 'string') : [];
    const error = [...errors, text(s.message)].filter(Boolean).join('; ').slice(0, 2000);
    if (error) summary.error = error;
    if (s.plex && typeof s.plex === 'object') {
      if (s.plex.triggered === true) summary.media_server_refresh = 'ok';
      else if (s.plex.skipped === true && s.plex.reason === 'plex not configured') summary.media_server_refresh = 'not_configured';
      else {
        summary.media_server_refresh = 'failed';
        const why = text(s.plex.error) ?? text(s.plex.reason);
        if (why) summary.media_server_error = why;
      }
    }
    const d = s.delete;
    if (d && typeof d === 'object') {
      if (d.triggered === true) summary.box_deleted = Array.isArray(d.deleted) ? d.deleted.length : 0;
      else if (d.skipped === true) summary.box_delete_kept = count(d.candidates);
      else if (d.error !== undefined) {
        summary.box_delete_failed = count(d.candidates);
        summary.box_delete_error = `${text(d.stage, 40) ?? 'unknown'}: ${text(d.error) ?? 'failed'}`;
      }
    }
    let status: PlannedRun['status'] = r.status === 'ok' || r.status === 'partial' || r.status === 'error' ? r.status : 'error';
    if (r.status === 'running') {
      status = 'error';
      summary.error = 'interrupted: fetcharr stopped during this run';
    }
    summary.note = `imported from fetcharr (its sync ${r.id})`;
    runs.push({
      source_id: Number(r.id),
      trigger,
      source_show_id: typeof s.showId === 'number' ? s.showId : null,
      started_at: started,
      finished_at: fetcharrTime(r.finished_at),
      status,
      summary,
    });
  }
  runs.sort((a, b) => a.started_at - b.started_at || a.source_id - b.source_id);
  return { runs, refused };
}
