import { finishBucket, flooredWidthSeconds, MAX_ROWS } from './downsample.js';
import type { DurableStore } from './durable-store.js';
import type { MemoryWindow } from './memory-window.js';
import type { DownsampledRow, HistorySample } from './sample.js';

/** A validated `GET /api/history` query (see routes.ts). Times are epoch ms, inclusive. */
export interface HistoryQuery {
  order?: 'asc' | 'desc';
  limit?: number;
  since?: number;
  until?: number;
  /** Seconds per downsampled row. */
  every?: number;
}

export interface HistorySources {
  /** The newest samples, when this thread has them (the reader worker has none). */
  memory?: MemoryWindow;
  durable: DurableStore;
  /** Samples older than this are outside the raw retention (the table may hold them until its next prune). */
  cutoff: number;
  /** Minutes older than this are outside the minute retention (default: none kept before `cutoff`). */
  minuteCutoff?: number;
}

export type HistoryResult =
  | { kind: 'samples'; rows: HistorySample[] }
  | { kind: 'downsampled'; rows: DownsampledRow[]; widthSeconds: number };

const FAR_FUTURE = Number.MAX_SAFE_INTEGER;

/**
 * Answers a history query. Raw rows: the most recent `limit` (default and cap 20,000) inside
 * [since, until] cut to the raw retention, from the memory window and, for anything older, the
 * table. Downsampled rows: one per bucket of max(every, floor) seconds aligned to epoch multiples
 * of the width, over the window; `limit` then keeps the most recent buckets. With `every` of a
 * minute or more, `since` reaches back past the raw retention into the minute and hour tiers.
 */
export function queryHistory(src: HistorySources, q: HistoryQuery): HistoryResult {
  const tiered = q.every !== undefined && q.every >= 60 && q.since !== undefined;
  const lo = tiered ? q.since! : Math.max(q.since ?? src.cutoff, src.cutoff);
  const hi = q.until ?? FAR_FUTURE;
  const limit = Math.min(q.limit ?? MAX_ROWS, MAX_ROWS);

  if (q.every === undefined) {
    // The newest rows from memory, then the rest of `limit` from the table strictly before them.
    const newer = src.memory?.range(lo, hi, limit) ?? [];
    const memFirst = src.memory?.firstT ?? FAR_FUTURE;
    const rows = src.durable.recent(lo, Math.min(hi, memFirst - 1), limit - newer.length).concat(newer);
    if (q.order === 'desc') rows.reverse();
    return { kind: 'samples', rows };
  }

  const cut = { raw: src.cutoff, minute: Math.min(src.minuteCutoff ?? src.cutoff, src.cutoff) };
  // The span that actually holds data decides the floor on the bucket width.
  const extent = src.durable.extent(lo, hi, cut);
  if (!extent) return { kind: 'downsampled', rows: [], widthSeconds: q.every };
  const widthSeconds = flooredWidthSeconds(q.every, extent[0], extent[1]);
  const buckets = src.durable.buckets(lo, hi, widthSeconds * 1000, cut);
  const rows = buckets.slice(Math.max(0, buckets.length - limit)).map(finishBucket);
  if (q.order === 'desc') rows.reverse();
  return { kind: 'downsampled', rows, widthSeconds };
}

/** The same query as the JSON text `GET /api/history` sends. */
export function queryHistoryJson(src: HistorySources, q: HistoryQuery, pretty: boolean): { body: string; widthSeconds?: number } {
  const result = queryHistory(src, q);
  return { body: pretty ? JSON.stringify(result.rows, null, 2) : JSON.stringify(result.rows), widthSeconds: result.kind === 'downsampled' ? result.widthSeconds : undefined };
}
