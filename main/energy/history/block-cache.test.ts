import { describe, expect, it } from 'vitest';
import { BlockCache } from './block-cache.js';
import { BLOCK_MS } from './block-pages.js';
import { BucketColumns } from './bucket-columns.js';
import { finishBucket } from './downsample.js';
import { expectSameBuckets, makeSample, referenceBuckets, T0 } from './fixtures.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

describe('10-second block cache', () => {
  it('folds the same buckets as the raw samples while it grows, moves down after prunes and reads back a cut block', () => {
    const samples: HistorySample[] = [];
    let scanned = 0;
    const cache = new BlockCache(BLOCK_MS, {
      samples: (lo, hi, each) => {
        for (const s of samples) {
          if (s.t < lo || s.t > hi) continue;
          scanned++;
          each([s.t, ...SAMPLE_FIELDS.map((f) => s[f])]);
        }
      },
    });
    let t = T0 + 700;
    let cutoff = T0;
    for (let round = 0; round < 4; round++) {
      // 62 minutes per round: more than the hour of headroom, so the arrays grow or move down.
      for (let i = 0; i < 1200; i++, t += 3_100) samples.push(makeSample(t));
      if (round % 2 === 1) {
        cutoff += 3_600_000 + 4_321;
        samples.splice(0, samples.findIndex((s) => s.t >= cutoff));
        cache.dropThrough(Math.floor(cutoff / BLOCK_MS));
      }
      const lo = samples[0]!.t;
      const last = samples.at(-1)!.t;
      // Whole blocks only, as DurableStore asks: from the first whole block to the last complete one.
      const bLo = Math.ceil(lo / BLOCK_MS);
      const bHi = Math.floor((last + 1) / BLOCK_MS) - 1;
      const inBlocks = samples.filter((s) => s.t >= bLo * BLOCK_MS && s.t < (bHi + 1) * BLOCK_MS);
      for (const width of [10_000, 40_000]) {
        const before = scanned;
        const out = new BucketColumns();
        expect(cache.foldInto(out, bLo, bHi, width)).toBe(true);
        const rows = Array.from({ length: out.length }, (_, j) => finishBucket(out.bucket(j)));
        expectSameBuckets(rows, referenceBuckets(inBlocks, width));
        // Only the first fold of a round reads samples: the rest come from the cache.
        if (width !== 10_000) expect(scanned).toBe(before);
      }
    }
    const tooWide = new BucketColumns();
    expect(cache.foldInto(tooWide, 0, 14 * 8640 + 1, 10_000)).toBe(false);
    expect(tooWide.length).toBe(0);
  }, 120_000);
});
