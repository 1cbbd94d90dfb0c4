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
 */
export function queryHistory(src: HistorySources, q: HistoryQuery): HistoryResult {
  const lo = Math.max(q.since ?? src.cutoff, src.cutoff);
  const hi = q.until ?? FAR_FUTURE;
  const limit = Math.min(q.limit ?? MAX_ROWS, MAX_ROWS);
  const memFirst = src.memory.firstT ?? FAR_FUTURE;

  if (q.every === undefined) {
    let rows = src.memory.range(lo, hi, limit);
    if (rows.length < limit && lo < memFirst) {
      rows = src.durable.recent(lo, Math.min(hi, memFirst - 1), limit - rows.length).concat(rows);
    }
    if (q.order === 'desc') rows.reverse();
    return { kind: 'samples', rows };
  }

  // The span that actually holds data decides the floor on the bucket width.
  const first = minOf(src.durable.firstFrom(lo), src.memory.firstIn(lo, hi));
  const last = src.memory.range(lo, hi, 1)[0]?.t ?? src.durable.recent(lo, hi, 1)[0]?.t ?? null;
  if (first === null || last === null || first > hi) return { kind: 'downsampled', rows: [], widthSeconds: q.every };
  const widthSeconds = flooredWidthSeconds(q.every, first, last);
  const widthMs = widthSeconds * 1000;

  // Downsampling reads the durable copy, which holds the whole series (the memory window is its
  // newest part): whole minutes from its per-minute rollup, the partial minutes at the edges raw.
  let rows = src.durable.buckets(first, last, widthMs).map(finishBucket);
  if (q.limit !== undefined && rows.length > q.limit) rows = rows.slice(rows.length - q.limit);
  if (q.order === 'desc') rows.reverse();
  return { kind: 'downsampled', rows, widthSeconds };
}

const minOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));
