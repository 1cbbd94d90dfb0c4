import { describe, expect, it } from 'vitest';
import { BucketColumns } from './bucket-columns.js';
import { downsampledJsonBytes } from './downsample-json.js';
import { emptyBucket, finishBucket, type PartialBucket } from './downsample.js';
import { SAMPLE_FIELDS } from './sample.js';

const F = SAMPLE_FIELDS.length;
const text = (u8: Uint8Array) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('utf8');

/** What the response was before: the finished rows through JSON.stringify. */
const reference = (buckets: PartialBucket[], from = 0, desc = false) => {
  const rows = buckets.slice(from).map(finishBucket);
  if (desc) rows.reverse();
  return JSON.stringify(rows);
};

const columns = (buckets: PartialBucket[]) => {
  const c = new BucketColumns(1);
  for (const b of buckets) c.add(b);
  return c;
};

// Values whose JSON text is easy to get wrong when written by hand: decimals that are not
// 4-place ones, trailing zeros, negative zero, exponents, the edges of the 15-digit fast path.
const AWKWARD = [0, -0, 1, -1, 0.1, 0.30000000000000004, 1234.5, 1234.56789, -0.0001, 0.00005, 1e-7, 123456789012.3456, 99999999999.9999, 1e21, -1e21, 1.5e300, 5e-324, 2 ** 53, 3966.03, -1547.01, 42.1, 7.25];

describe('downsampled rows written as JSON bytes', () => {
  it('are byte for byte what JSON.stringify writes of the finished rows, for awkward numbers, nulls, NaN and infinities', () => {
    const buckets: PartialBucket[] = [];
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let j = 0; j < 400; j++) {
      const b = emptyBucket(1_767_225_600_000 + j * 40_000);
      b.n = 1 + Math.floor(rand() * 60);
      for (let i = 0; i < F; i++) {
        const pick = () => (rand() < 0.5 ? AWKWARD[Math.floor(rand() * AWKWARD.length)]! : Math.round((rand() - 0.5) * 1e6) / 10 ** Math.floor(rand() * 6));
        if (rand() < 0.1) continue; // no value of this field in the bucket: null mean, min and max
        b.cnt[i] = 1 + Math.floor(rand() * b.n);
        b.sum[i] = rand() < 0.05 ? [Infinity, -Infinity, NaN][j % 3]! : pick() * b.cnt[i]!;
        const a = pick();
        const c = pick();
        b.min[i] = Math.min(a, c);
        b.max[i] = Math.max(a, c);
      }
      buckets.push(b);
    }
    const cols = columns(buckets);
    expect(text(downsampledJsonBytes(cols))).toBe(reference(buckets));
    expect(text(downsampledJsonBytes(cols, 123))).toBe(reference(buckets, 123));
    expect(text(downsampledJsonBytes(cols, 0, true))).toBe(reference(buckets, 0, true));
    expect(text(downsampledJsonBytes(cols, 390, true))).toBe(reference(buckets, 390, true));
    // The output parses back to the same rows, so a client sees the same numbers.
    expect(JSON.parse(text(downsampledJsonBytes(cols)))).toEqual(JSON.parse(reference(buckets)));
  });

  it('writes an empty array for no buckets, and for a limit past the end', () => {
    expect(text(downsampledJsonBytes(new BucketColumns()))).toBe('[]');
    const one = emptyBucket(60_000);
    one.n = 1;
    expect(text(downsampledJsonBytes(columns([one]), 1))).toBe('[]');
    expect(text(downsampledJsonBytes(columns([one])))).toBe(reference([one]));
  });

  it('every 4-decimal mean between -2 and 2 prints as JavaScript prints it', () => {
    const buckets: PartialBucket[] = [];
    for (let k = -20_000; k <= 20_000; k += 7) {
      const b = emptyBucket(k);
      b.n = 3;
      b.cnt[0] = 3;
      b.sum[0] = (k / 10_000) * 3;
      b.min[0] = k / 10_000;
      b.max[0] = k / 1000;
      buckets.push(b);
    }
    expect(text(downsampledJsonBytes(columns(buckets)))).toBe(reference(buckets));
  });
});
