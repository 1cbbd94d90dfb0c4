import type { Recording, Show, SyncRun } from '../types.js';

export const WEEK_MS = 7 * 86_400_000;

/** Recordings downloaded in the last seven days (done rows only), with their total size. */
export function thisWeek(rows: readonly Recording[], now: number): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const r of rows) {
    if (r.status !== 'done' || !r.downloaded_at) continue;
    const t = Date.parse(r.downloaded_at);
    if (now - t > WEEK_MS || t > now + 60_000) continue;
    count++;
    bytes += r.size ?? 0;
  }
  return { count, bytes };
}

/** Followed shows: how many, how many paused. */
export function showCounts(shows: readonly Show[]): { total: number; paused: number } {
  return { total: shows.length, paused: shows.filter((s) => !s.enabled).length };
}

/** The newest finished run whose summary says something about `key` (runs are newest first). */
export function lastRunWith<K extends 'media_server_refresh' | 'box_deleted' | 'box_delete_failed'>(runs: readonly SyncRun[], key: K): SyncRun | null {
  return runs.find((r) => r.status !== 'running' && r.summary && r.summary[key] !== undefined && r.summary[key] !== 0 && r.summary[key] !== 'not_configured') ?? null;
}

/**
 * "3 downloaded · 1 failed · 2 skipped" (zeros left out; "nothing new" when all are zero). A running
 * run says what it is doing: downloading (how many now) with its counts so far, never "nothing new".
 */
export function countsLine(run: SyncRun, downloadingNow = 0): string {
  const s = run.summary;
  const parts = s ? [s.downloaded ? `${s.downloaded} downloaded` : '', s.failed ? `${s.failed} failed` : '', s.skipped ? `${s.skipped} skipped` : ''].filter(Boolean) : [];
  if (run.status === 'running') {
    const doing = downloadingNow ? `downloading ${downloadingNow} now` : 'checking the box for new recordings';
    return parts.length ? `${doing} · ${parts.join(' · ')} so far` : doing;
  }
  if (!s) return 'no counts';
  return parts.length ? parts.join(' · ') : 'nothing new';
}

/** A run read from another program's history (fetcharr), not one this service ran. */
export const isImported = (run: SyncRun): boolean => Boolean(run.summary?.imported_from);

/** Host (and port) of a URL setting, for "connected to …" lines; the text itself when not a URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
