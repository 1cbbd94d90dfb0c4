import { isPowerField, round4, SAMPLE_FIELDS, type DownsampledRow } from './sample.js';

/** The most rows a history response may carry, downsampled or not (spec limit). */
export const MAX_ROWS = 20_000;

/**
 * A bucket's partial aggregate: enough to merge buckets computed from different sources (the
 * samples, the minute and hour tiers) and to finish into a row. Arrays follow SAMPLE_FIELDS.
 */
export interface PartialBucket {
  t: number;
  n: number;
  sum: number[];
  cnt: number[];
  min: Array<number | null>;
  max: Array<number | null>;
}

const F = SAMPLE_FIELDS.length;

/**
 * The bucket width in whole seconds: at least `every`, and wide enough that the aligned buckets over
 * [lo, hi] never number more than MAX_ROWS (at most floor(s / w) + 2 over a span s, so w >= (s + 1) /
 * (MAX_ROWS - 1)). A floor above `every` is rounded up as roundedFloor says (7 days: 40 s, 15,120 rows).
 */
export function flooredWidthSeconds(everySeconds: number, lo: number, hi: number): number {
  if (hi < lo) return everySeconds;
  const floor = Math.ceil((hi - lo + 1) / ((MAX_ROWS - 1) * 1000));
  return everySeconds >= floor ? everySeconds : roundedFloor(floor);
}

/** The smallest width >= `seconds` among 1, 2, 5, 10, 20, ... 60, 120, ... 3600, 7200, ... seconds. */
export function roundedFloor(seconds: number): number {
  if (seconds <= 2) return seconds;
  if (seconds <= 5) return 5;
  if (seconds <= 60) return Math.ceil(seconds / 10) * 10;
  if (seconds <= 3600) return Math.ceil(seconds / 60) * 60;
  return Math.ceil(seconds / 3600) * 3600;
}

export function emptyBucket(t: number): PartialBucket {
  return { t, n: 0, sum: new Array<number>(F).fill(0), cnt: new Array<number>(F).fill(0), min: new Array(F).fill(null), max: new Array(F).fill(null) };
}

const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const upper = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

export function mergeBucket(into: PartialBucket, from: PartialBucket): void {
  into.n += from.n;
  for (let i = 0; i < F; i++) {
    into.sum[i]! += from.sum[i]!;
    into.cnt[i]! += from.cnt[i]!;
    into.min[i] = lower(into.min[i]!, from.min[i]!);
    into.max[i] = upper(into.max[i]!, from.max[i]!);
  }
}

/**
 * A bucket from an SQL aggregate row laid out as `[t, n, (sum, count, min, max) per sample field]`
 * (see durable-store.ts).
 */
export function bucketFromSql(row: unknown[]): PartialBucket {
  const b = emptyBucket(row[0] as number);
  b.n = row[1] as number;
  for (let i = 0; i < F; i++) {
    const k = 2 + i * 4;
    b.sum[i] = (row[k] as number | null) ?? 0;
    b.cnt[i] = (row[k + 1] as number | null) ?? 0;
    b.min[i] = row[k + 2] as number | null;
    b.max[i] = row[k + 3] as number | null;
  }
  return b;
}

/** The user-visible row: means (4 decimals) of every field, min/max of power fields, `n`, keys in DOWNSAMPLED_COLUMNS order. */
export function finishBucket(b: PartialBucket): DownsampledRow {
  const row: Record<string, number | null> = { t: b.t };
  SAMPLE_FIELDS.forEach((f, i) => {
    row[f] = b.cnt[i] ? round4(b.sum[i]! / b.cnt[i]!) : null;
    if (isPowerField(f)) [row[`${f}Min`], row[`${f}Max`]] = [b.min[i]!, b.max[i]!];
  });
  row.n = b.n;
  return row as DownsampledRow;
}

/** Column order of a downsampled row (JSON key order and CSV columns after the time). */
export const DOWNSAMPLED_COLUMNS: string[] = ['t', ...SAMPLE_FIELDS.flatMap((f) => (isPowerField(f) ? [f, `${f}Min`, `${f}Max`] : [f])), 'n'];
