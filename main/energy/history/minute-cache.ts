import type { PartialBucket } from './downsample.js';

/** Minutes held at most (14 days); a wider request reads SQLite without caching. */
export const MAX_CACHED_MINUTES = 14 * 24 * 60;

/**
 * An in-memory copy of the per-minute rollup over one contiguous range of *sealed* minutes (those
 * before the newest sample's minute, which no longer change). Reading ~10,000 rollup rows out of
 * SQLite costs far more than the downsampling itself, and a dashboard asks again every few seconds;
 * with the cache only the newest minutes are read. Invalidated by a prune (drops the cut minutes)
 * and by a bulk import (clears it).
 */
export class MinuteCache {
  private rows = new Map<number, PartialBucket>();
  private lo = 0;
  private hi = -1;

  constructor(private readonly fetch: (mLo: number, mHi: number) => PartialBucket[]) {}

  /** Rollup rows for minutes mLo..mHi in order; minutes after `sealedTo` are always read fresh. */
  get(mLo: number, mHi: number, sealedTo: number): PartialBucket[] {
    const sealedHi = Math.min(mHi, sealedTo);
    if (sealedHi < mLo) return this.fetch(mLo, mHi);
    if (sealedHi - mLo + 1 > MAX_CACHED_MINUTES) return this.fetch(mLo, mHi);
    if (this.hi < this.lo || mLo > this.hi + 1 || sealedHi < this.lo - 1 || Math.max(this.hi, sealedHi) - Math.min(this.lo, mLo) + 1 > MAX_CACHED_MINUTES) {
      this.reset();
      this.fill(mLo, sealedHi, false);
      this.lo = mLo;
      this.hi = sealedHi;
    } else {
      if (mLo < this.lo) this.fill(mLo, this.lo - 1, true);
      if (sealedHi > this.hi) this.fill(this.hi + 1, sealedHi, false);
      this.lo = Math.min(this.lo, mLo);
      this.hi = Math.max(this.hi, sealedHi);
    }
    const out: PartialBucket[] = [];
    for (const [m, b] of this.rows) if (m >= mLo && m <= sealedHi) out.push(b);
    if (mHi > sealedHi) out.push(...this.fetch(sealedHi + 1, mHi));
    return out;
  }

  /** Minutes held. */
  get size(): number {
    return this.rows.size;
  }

  /** The newest cached minute (-1 when empty). */
  get sealedHi(): number {
    return this.hi;
  }

  /** After a prune: minutes up to and including `edge` are gone or changed. */
  dropThrough(edge: number): void {
    for (const m of this.rows.keys()) if (m <= edge) this.rows.delete(m);
    if (this.lo <= edge) this.lo = edge + 1;
  }

  reset(): void {
    this.rows = new Map();
    this.lo = 0;
    this.hi = -1;
  }

  /** Reads minutes from SQLite; the map stays in minute order (appends go last, a prepend rebuilds it). */
  private fill(mLo: number, mHi: number, prepend: boolean): void {
    const fetched = this.fetch(mLo, mHi).map((b) => [b.t / 60_000, b] as [number, PartialBucket]);
    this.rows = prepend ? new Map([...fetched, ...this.rows]) : new Map([...this.rows, ...fetched]);
  }
}
