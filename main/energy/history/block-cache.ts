import type { BucketColumns } from './bucket-columns.js';
import { SAMPLE_FIELDS } from './sample.js';

const F = SAMPLE_FIELDS.length;

/** Time held at most (14 days); a wider range is answered without the cache. */
const MAX_CACHED_MS = 14 * 86_400_000;

/**
 * `rollups(bLo, bHi, each)` calls `each` with `[t, n, (sum, count, min, max) per field]` (min and
 * max may be null) for every stored block from bLo to bHi, oldest first.
 */
export type BlockSource = (bLo: number, bHi: number, each: (row: unknown[]) => void) => void;

/**
 * Partial aggregates (count, per-field sum, non-null count, min, max) of the *sealed* blocks of
 * `unitMs` (the per-minute rollup rows) of one contiguous range, held in typed arrays (284 bytes a
 * block: 2.9 MB for a week of minutes). Read from the rollup on first use, then extended with the
 * newly sealed blocks only, so a dashboard asking `every=60` again folds 10,080 cached minutes
 * instead of reading them from SQLite. Slots are indexed from `base`; a prune moves `lo` up and
 * the slots below stay reusable, so the block a prune cut through is simply read again.
 */
export class BlockCache {
  /** Blocks held at most (14 days). */
  private readonly maxBlocks: number;
  private base = 0;
  private lo = 0;
  private hi = -1;
  private cap = 0;
  private n = new Uint32Array(0);
  private sum = new Float64Array(0);
  private cnt = new Uint32Array(0);
  /** NaN where a block holds no value of the field. */
  private min = new Float64Array(0);
  private max = new Float64Array(0);

  constructor(
    readonly unitMs: number,
    private readonly rollups: BlockSource,
  ) {
    this.maxBlocks = Math.floor(MAX_CACHED_MS / unitMs);
  }

  /** Block slots allocated (284 bytes each), used or not. */
  get slots(): number {
    return this.cap;
  }

  /** The newest cached block (-1 when empty). */
  get sealedHi(): number {
    return this.hi;
  }

  /**
   * Folds blocks bLo..bHi, all sealed, into buckets of `widthMs` (a multiple of `unitMs`) at the
   * end of `out`, in time order; false (and nothing added) when the range is too wide to cache.
   */
  foldInto(out: BucketColumns, bLo: number, bHi: number, widthMs: number): boolean {
    if (bHi < bLo) return true;
    if (bHi - bLo + 1 > this.maxBlocks) return false;
    this.ensure(bLo, bHi);
    const { n, sum, cnt, min, max, base } = this;
    let start = NaN;
    let j = -1;
    for (let b = bLo; b <= bHi; b++) {
      const s = b - base;
      const count = n[s]!;
      if (count === 0) continue;
      const t = Math.floor((b * this.unitMs) / widthMs) * widthMs;
      if (t !== start) {
        start = t;
        j = out.at(t);
      }
      out.n[j]! += count;
      const k = s * F;
      const o = j * F;
      for (let i = 0; i < F; i++) {
        const c = cnt[k + i]!;
        if (c === 0) continue;
        out.sum[o + i]! += sum[k + i]!;
        out.cnt[o + i]! += c;
        const lo = min[k + i]!;
        const hi = max[k + i]!;
        if (!(out.min[o + i]! <= lo)) out.min[o + i] = lo;
        if (!(out.max[o + i]! >= hi)) out.max[o + i] = hi;
      }
    }
    return true;
  }

  /** After a prune: blocks up to and including `edge` are gone or changed. */
  dropThrough(edge: number): void {
    if (this.hi < this.lo) return;
    if (edge >= this.hi) return this.reset();
    if (this.lo <= edge) this.lo = edge + 1;
  }

  /** Forgets every block and gives the arrays' memory back. */
  reset(): void {
    this.base = 0;
    this.lo = 0;
    this.hi = -1;
    this.cap = 0;
    this.n = new Uint32Array(0);
    this.sum = new Float64Array(0);
    this.cnt = new Uint32Array(0);
    this.min = new Float64Array(0);
    this.max = new Float64Array(0);
  }

  private ensure(bLo: number, bHi: number): void {
    const empty = this.hi < this.lo;
    if (empty || bHi < this.lo - 1 || bLo > this.hi + 1 || bLo < this.base || Math.max(bHi, this.hi) - Math.min(bLo, this.lo) + 1 > this.maxBlocks) {
      this.base = bLo;
      this.lo = bLo;
      this.hi = bLo - 1;
      this.room(bHi - bLo + 1);
      this.fill(bLo, bHi);
      this.hi = bHi;
      return;
    }
    if (bLo < this.lo) {
      this.fill(bLo, this.lo - 1);
      this.lo = bLo;
    }
    if (bHi > this.hi) {
      this.room(bHi - this.base + 1);
      this.fill(this.hi + 1, bHi);
      this.hi = bHi;
    }
  }

  /** Makes slots 0..size-1 exist (relative to `base`): moves the live range down first, grows if needed. */
  private room(size: number): void {
    if (size <= this.cap) return;
    if (this.lo > this.base && this.hi >= this.lo) {
      const shift = this.lo - this.base;
      for (const a of [this.n, this.sum, this.cnt, this.min, this.max]) {
        const per = a === this.n ? 1 : F;
        a.copyWithin(0, shift * per, (this.hi - this.base + 1) * per);
      }
      this.base = this.lo;
      size -= shift;
      if (size <= this.cap) return;
    }
    // 360 blocks of headroom (6 hours of minutes): steady polling then fills it, and a prune's
    // freed slots are reused first.
    const cap = Math.min(this.maxBlocks, size + 360);
    const grow = <T extends Uint32Array | Float64Array>(old: T, make: (n: number) => T, per: number): T => {
      const a = make(cap * per);
      a.set(old.subarray(0, Math.min(old.length, cap * per)));
      return a;
    };
    this.n = grow(this.n, (k) => new Uint32Array(k), 1);
    this.sum = grow(this.sum, (k) => new Float64Array(k), F);
    this.cnt = grow(this.cnt, (k) => new Uint32Array(k), F);
    this.min = grow(this.min, (k) => new Float64Array(k), F);
    this.max = grow(this.max, (k) => new Float64Array(k), F);
    this.cap = cap;
  }

  /** Reads blocks bLo..bHi into their slots. */
  private fill(bLo: number, bHi: number): void {
    const from = bLo - this.base;
    const to = bHi - this.base + 1;
    this.n.fill(0, from, to);
    this.sum.fill(0, from * F, to * F);
    this.cnt.fill(0, from * F, to * F);
    this.min.fill(NaN, from * F, to * F);
    this.max.fill(NaN, from * F, to * F);
    const { n, sum, cnt, min, max, base, unitMs } = this;
    this.rollups(bLo, bHi, (row) => {
      const s = Math.floor((row[0] as number) / unitMs) - base;
      n[s] = row[1] as number;
      const k = s * F;
      for (let i = 0; i < F; i++) {
        const c = (row[3 + i * 4] as number | null) ?? 0;
        if (c === 0) continue;
        sum[k + i] = row[2 + i * 4] as number;
        cnt[k + i] = c;
        min[k + i] = (row[4 + i * 4] as number | null) ?? NaN;
        max[k + i] = (row[5 + i * 4] as number | null) ?? NaN;
      }
    });
  }
}
