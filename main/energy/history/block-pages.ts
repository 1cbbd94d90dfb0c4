import type { BucketColumns } from './bucket-columns.js';
import { SAMPLE_FIELDS } from './sample.js';

/**
 * The 10 s rollup on disk (`block_pages`, see durable-schema.ts): one row per *sealed* 10-minute
 * page (every page before the newest sample's), its 60 blocks' partial aggregates as one blob of
 * doubles. A 7-day `every=1` query folds 1,008 blobs (20 MB read from the page cache) instead of
 * 604,800 raw rows, with nothing held in memory between queries. The writers keep them through
 * rollups.ts.
 */

const F = SAMPLE_FIELDS.length;

/** Milliseconds per 10 s block: downsampling widths that are multiples of 10 s read these. */
export const BLOCK_MS = 10_000;
/** Blocks per stored page (10 minutes). */
export const PAGE_BLOCKS = 60;
export const PAGE_MS = BLOCK_MS * PAGE_BLOCKS;
/** Doubles per block: the sample count, then (sum, non-null count, min, max) per field; min and max NaN where none. */
export const PER_BLOCK = 1 + 4 * F;
/** Bytes of one page's blob (19,680). */
export const PAGE_BYTES = PAGE_BLOCKS * PER_BLOCK * 8;

/** The page holding time `t`. */
export const pageOf = (t: number): number => Math.floor(t / PAGE_MS);

/** An empty page's doubles: no samples, min and max NaN. */
export function emptyPage(): Float64Array {
  const a = new Float64Array(PAGE_BLOCKS * PER_BLOCK);
  for (let b = 0; b < PAGE_BLOCKS; b++) {
    for (let i = 0; i < F; i++) {
      a[b * PER_BLOCK + 3 + 4 * i] = NaN;
      a[b * PER_BLOCK + 4 + 4 * i] = NaN;
    }
  }
  return a;
}

/** Adds one sample (`[t, ...SAMPLE_FIELDS]`, inside page `p`) to the page's doubles. */
export function addToPage(a: Float64Array, p: number, row: readonly unknown[]): void {
  const k = (Math.floor((row[0] as number) / BLOCK_MS) - p * PAGE_BLOCKS) * PER_BLOCK;
  a[k]!++;
  for (let i = 0; i < F; i++) {
    const v = row[i + 1] as number | null;
    if (v === null || v === undefined) continue;
    const o = k + 1 + 4 * i;
    a[o]! += v;
    const c = a[o + 1]!;
    a[o + 1] = c + 1;
    if (c === 0 || v < a[o + 2]!) a[o + 2] = v;
    if (c === 0 || v > a[o + 3]!) a[o + 3] = v;
  }
}

/** A page's blob as doubles (copied when SQLite's buffer is not 8-byte aligned). */
function doubles(blob: Buffer): Float64Array {
  if (blob.byteLength !== PAGE_BYTES) throw new Error(`block page of ${blob.byteLength} bytes, expected ${PAGE_BYTES}`);
  if (blob.byteOffset % 8 === 0) return new Float64Array(blob.buffer, blob.byteOffset, PAGE_BLOCKS * PER_BLOCK);
  return new Float64Array(new Uint8Array(blob).buffer);
}

/** Folds blocks bFrom..bTo of page `p` (its blob) into buckets of `widthMs` at the end of `out`. */
export function foldPage(out: BucketColumns, p: number, blob: Buffer, bFrom: number, bTo: number, widthMs: number): void {
  const a = doubles(blob);
  const first = p * PAGE_BLOCKS;
  let start = NaN;
  let j = -1;
  for (let b = bFrom; b <= bTo; b++) {
    const k = (b - first) * PER_BLOCK;
    const count = a[k]!;
    if (count === 0) continue;
    const t = Math.floor((b * BLOCK_MS) / widthMs) * widthMs;
    if (t !== start) {
      start = t;
      j = out.at(t);
    }
    out.n[j]! += count;
    const o = j * F;
    for (let i = 0; i < F; i++) {
      const q = k + 1 + 4 * i;
      const c = a[q + 1]!;
      if (c === 0) continue;
      out.sum[o + i]! += a[q]!;
      out.cnt[o + i]! += c;
      const lo = a[q + 2]!;
      const hi = a[q + 3]!;
      if (!(out.min[o + i]! <= lo)) out.min[o + i] = lo;
      if (!(out.max[o + i]! >= hi)) out.max[o + i] = hi;
    }
  }
}
