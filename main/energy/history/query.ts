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
  memory: MemoryWindow;
  durable: DurableStore;
  /** Samples older than this are outside retention (the durable copy may still hold them until its next prune). */
  cutoff: number;
}

export type HistoryResult =
  | { kind: 'samples'; rows: HistorySample[] }
  | { kind: 'downsampled'; rows: DownsampledRow[]; widthSeconds: number };

const FAR_FUTURE = Number.MAX_SAFE_INTEGER;

/**
 * Answers a history query. Raw rows come from the memory window and, for anything older than it
 * holds, from the durable copy. Raw rows: the most recent `limit` (default and cap 20,000) inside [since, until].
 * Downsampled rows: one per bucket of max(every, span / 20,000) seconds, aligned to epoch
 * multiples of the width, over the whole window; `limit` then keeps the most recent buckets.
 *
 * Downsampling reads the durable copy alone, which holds the whole series (the memory window is its
 * newest part; the reader worker that answers `GET /api/history` has no memory window at all).
 */
export function queryHistory(src: HistorySources, q: HistoryQuery): HistoryResult {
  const lo = Math.max(q.since ?? src.cutoff, src.cutoff);
  const hi = q.until ?? FAR_FUTURE;
  const limit = Math.min(q.limit ?? MAX_ROWS, MAX_ROWS);

  if (q.every === undefined) {
    // The newest rows from memory, then the rest of `limit` from the durable copy strictly before
    // the window (an empty span or a zero limit reads nothing there).
    const newer = src.memory.range(lo, hi, limit);
    const memFirst = src.memory.firstT ?? FAR_FUTURE;
    const rows = src.durable.recent(lo, Math.min(hi, memFirst - 1), limit - newer.length).concat(newer);
    if (q.order === 'desc') rows.reverse();
    return { kind: 'samples', rows };
  }

  // The span that actually holds data decides the floor on the bucket width.
  const newest = src.durable.recent(lo, hi, 1)[0];
  if (!newest) return { kind: 'downsampled', rows: [], widthSeconds: q.every };
  // A sample at or before `newest` exists, so the oldest from `lo` on is inside [lo, hi].
  const first = src.durable.firstFrom(lo)!;
  const widthSeconds = flooredWidthSeconds(q.every, first, newest.t);

  // Whole minutes from the durable copy's per-minute rollup, the partial minutes at the edges raw;
  // `limit` keeps the most recent buckets (the floor keeps them at 20,000 or fewer anyway).
  const rows = src.durable.buckets(first, newest.t, widthSeconds * 1000).map(finishBucket).slice(-limit);
  if (q.order === 'desc') rows.reverse();
  return { kind: 'downsampled', rows, widthSeconds };
}
