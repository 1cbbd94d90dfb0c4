import { describe, expect, it } from 'vitest';
import { BlockCache } from './block-cache.js';
import { BucketColumns } from './bucket-columns.js';
import { finishBucket } from './downsample.js';
import { expectSameBuckets, makeSample, referenceBuckets, T0 } from './fixtures.js';
import { isPowerField, SAMPLE_FIELDS, type HistorySample } from './sample.js';

const MIN = 60_000;

/** Rollup rows as the `minutes` table gives them: `[t, n, (sum, count, min, max) per field]`, min/max null for non-power fields. */
function rollupRows(samples: HistorySample[], lo: number, hi: number): unknown[][] {
  const rows: unknown[][] = [];
  for (let m = lo; m <= hi; m++) {
    const inside = samples.filter((s) => Math.floor(s.t / MIN) === m);
    if (!inside.length) continue;
    const row: unknown[] = [m * MIN, inside.length];
    for (const f of SAMPLE_FIELDS) {
      const vals = inside.map((s) => s[f]).filter((v): v is number => v !== null);
      const power = isPowerField(f) && vals.length > 0;
      row.push(
        vals.reduce((a, b) => a + b, 0),
        vals.length,
        power ? Math.min(...vals) : null,
        power ? Math.max(...vals) : null,
      );
    }
    rows.push(row);
  }
  return rows;
}

describe('cached rollup minutes', () => {
  it('fold the same buckets as the raw samples while they grow, move down after prunes and read back a cut minute', () => {
    const samples: HistorySample[] = [];
    let read = 0;
    const cache = new BlockCache(MIN, (lo, hi, each) => {
      for (const row of rollupRows(samples, lo, hi)) {
        read++;
        each(row);
      }
    });
    let t = T0 + 700;
    let cutoff = T0;
    for (let round = 0; round < 4; round++) {
      // 6.5 hours a round: more than the 360 minutes of headroom, so the arrays grow or move down.
      for (let i = 0; i < 1300; i++, t += 18_100) samples.push(makeSample(t));
      if (round % 2 === 1) {
        cutoff += 6 * 3_600_000 + 4_321;
        samples.splice(0, samples.findIndex((s) => s.t >= cutoff));
        cache.dropThrough(Math.floor(cutoff / MIN));
      }
      // Whole minutes only, as DurableStore asks: from the first whole minute to the last complete one.
      const mLo = Math.ceil(samples[0]!.t / MIN);
      const mHi = Math.floor((samples.at(-1)!.t + 1) / MIN) - 1;
      const inMinutes = samples.filter((s) => s.t >= mLo * MIN && s.t < (mHi + 1) * MIN);
      for (const width of [MIN, 5 * MIN]) {
        const before = read;
        const out = new BucketColumns();
        expect(cache.foldInto(out, mLo, mHi, width)).toBe(true);
        const rows = Array.from({ length: out.length }, (_, j) => finishBucket(out.bucket(j)));
        expectSameBuckets(rows, referenceBuckets(inMinutes, width));
        // Only the first fold of a round reads the rollup: the rest come from the cache.
        if (width !== MIN) expect(read).toBe(before);
      }
    }
    expect(cache.slots).toBeGreaterThan(0);
    cache.reset();
    expect(cache.slots).toBe(0);
    const tooWide = new BucketColumns();
    expect(cache.foldInto(tooWide, 0, 14 * 1440 + 1, MIN)).toBe(false);
    expect(tooWide.length).toBe(0);
  }, 120_000);
});
