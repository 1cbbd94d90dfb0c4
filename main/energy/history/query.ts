import { BucketColumns } from './bucket-columns.js';
import { finishBucket, flooredWidthSeconds, MAX_ROWS } from './downsample.js';
import { downsampledJsonBytes } from './downsample-json.js';
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

  const { buckets, from, widthSeconds } = downsampledBuckets(src, q.every, lo, hi, limit);
  const rows: DownsampledRow[] = [];
  for (let j = from; j < buckets.length; j++) rows.push(finishBucket(buckets.bucket(j)));
  if (q.order === 'desc') rows.reverse();
  return { kind: 'downsampled', rows, widthSeconds };
}

const encoder = new TextEncoder();

/**
 * The same query as the UTF-8 JSON `GET /api/history` sends, in an ArrayBuffer of its own (so a
 * worker can transfer it). Downsampled rows are written straight from the partial buckets
 * (downsampledJsonBytes: byte for byte what JSON.stringify writes of the rows).
 */
export function queryHistoryJson(src: HistorySources, q: HistoryQuery, pretty: boolean, allocate?: (bytes: number) => Uint8Array): { body: Uint8Array; widthSeconds?: number } {
  if (q.every === undefined || pretty) {
    const result = queryHistory(src, q);
    const text = pretty ? JSON.stringify(result.rows, null, 2) : JSON.stringify(result.rows);
    return { body: encoder.encode(text), widthSeconds: result.kind === 'downsampled' ? result.widthSeconds : undefined };
  }
  const lo = Math.max(q.since ?? src.cutoff, src.cutoff);
  const { buckets, from, widthSeconds } = downsampledBuckets(src, q.every, lo, q.until ?? FAR_FUTURE, Math.min(q.limit ?? MAX_ROWS, MAX_ROWS));
  return { body: downsampledJsonBytes(buckets, from, q.order === 'desc', allocate), widthSeconds };
}

/** The buckets of a downsampled query; the response holds those from index `from` on (`limit`). */
function downsampledBuckets(src: HistorySources, every: number, lo: number, hi: number, limit: number): { buckets: BucketColumns; from: number; widthSeconds: number } {
  // The span that actually holds data decides the floor on the bucket width.
  const newest = src.durable.recent(lo, hi, 1)[0];
  if (!newest) return { buckets: new BucketColumns(1), from: 0, widthSeconds: every };
  // A sample at or before `newest` exists, so the oldest from `lo` on is inside [lo, hi].
  const first = src.durable.firstFrom(lo)!;
  const widthSeconds = flooredWidthSeconds(every, first, newest.t);
  // Whole minutes from the durable copy's per-minute rollup, whole 10 s blocks from its block
  // cache, the partial ones at the edges raw; `limit` keeps the most recent buckets (the floor
  // keeps them at 20,000 or fewer anyway).
  const buckets = src.durable.buckets(first, newest.t, widthSeconds * 1000);
  return { buckets, from: Math.max(0, buckets.length - limit), widthSeconds };
}
