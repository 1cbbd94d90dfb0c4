import { emptyBucket, type PartialBucket } from './downsample.js';
import { SAMPLE_FIELDS } from './sample.js';

const F = SAMPLE_FIELDS.length;

/**
 * Partial buckets in time order, held column-wise in typed arrays (fields follow SAMPLE_FIELDS, F
 * per bucket; min and max are NaN where the bucket holds no value of the field). Folding 60,480
 * cached 10 s blocks or 10,080 rollup minutes into these allocates nothing per bucket, where
 * bucket objects with `Array<number | null>` fields box every min and max they store.
 */
export class BucketColumns {
  length = 0;
  t: Float64Array;
  n: Float64Array;
  sum: Float64Array;
  cnt: Float64Array;
  min: Float64Array;
  max: Float64Array;

  constructor(capacity = 64) {
    const c = Math.max(1, capacity);
    this.t = new Float64Array(c);
    this.n = new Float64Array(c);
    this.sum = new Float64Array(c * F);
    this.cnt = new Float64Array(c * F);
    this.min = new Float64Array(c * F);
    this.max = new Float64Array(c * F);
  }

  /** The index of the bucket starting at `t`: the last one when it starts there, else a new empty one after it. */
  at(t: number): number {
    const last = this.length - 1;
    if (last >= 0 && this.t[last] === t) return last;
    if (this.length === this.t.length) this.grow();
    const j = this.length++;
    this.t[j] = t;
    this.n[j] = 0;
    const k = j * F;
    this.sum.fill(0, k, k + F);
    this.cnt.fill(0, k, k + F);
    this.min.fill(NaN, k, k + F);
    this.max.fill(NaN, k, k + F);
    return j;
  }

  /** Merges a partial bucket into the bucket starting at `start` (the last one, or a new one). */
  add(b: PartialBucket, start = b.t): void {
    const j = this.at(start);
    this.n[j]! += b.n;
    const k = j * F;
    for (let i = 0; i < F; i++) {
      const c = b.cnt[i]!;
      if (!c) continue;
      this.sum[k + i]! += b.sum[i]!;
      this.cnt[k + i]! += c;
      const lo = b.min[i];
      const hi = b.max[i];
      if (lo !== null && lo !== undefined && !(this.min[k + i]! <= lo)) this.min[k + i] = lo;
      if (hi !== null && hi !== undefined && !(this.max[k + i]! >= hi)) this.max[k + i] = hi;
    }
  }

  /** Bucket `j` as a bucket object (null where the typed arrays hold NaN). */
  bucket(j: number): PartialBucket {
    const b = emptyBucket(this.t[j]!);
    b.n = this.n[j]!;
    const k = j * F;
    for (let i = 0; i < F; i++) {
      b.sum[i] = this.sum[k + i]!;
      b.cnt[i] = this.cnt[k + i]!;
      const lo = this.min[k + i]!;
      const hi = this.max[k + i]!;
      b.min[i] = Number.isNaN(lo) ? null : lo;
      b.max[i] = Number.isNaN(hi) ? null : hi;
    }
    return b;
  }

  private grow(): void {
    const c = this.t.length * 2;
    const bigger = (a: Float64Array, per: number) => {
      const out = new Float64Array(c * per);
      out.set(a);
      return out;
    };
    this.t = bigger(this.t, 1);
    this.n = bigger(this.n, 1);
    this.sum = bigger(this.sum, F);
    this.cnt = bigger(this.cnt, F);
    this.min = bigger(this.min, F);
    this.max = bigger(this.max, F);
  }
}
