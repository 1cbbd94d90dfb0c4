import type { HistorySample } from './sample.js';

/**
 * The in-memory live window: the most recent samples in time order, at most `capacity` of them.
 * It is always a suffix of the durable copy (its newest sample loaded at start, then appended alongside it),
 * so a read that needs anything older than `firstT` goes to the durable copy.
 */
export class MemoryWindow {
  private items: HistorySample[] = [];

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.items.length;
  }

  get firstT(): number | null {
    return this.items[0]?.t ?? null;
  }

  get lastT(): number | null {
    return this.items.at(-1)?.t ?? null;
  }

  /** Appends a sample newer than the last one; returns false (and keeps nothing) otherwise. */
  push(sample: HistorySample): boolean {
    const last = this.lastT;
    if (last !== null && sample.t <= last) return false;
    this.items.push(sample);
    if (this.items.length > this.capacity) this.items.shift();
    return true;
  }

  /** Replaces the content (used when loading from the durable copy); input is oldest first. */
  load(samples: HistorySample[]): void {
    this.items = samples.slice(-this.capacity);
  }

  /** Drops samples older than `cutoff`. */
  trimBefore(cutoff: number): void {
    this.items.splice(0, this.lowerBound(cutoff));
  }

  /** Samples with lo <= t <= hi, oldest first; only the most recent `limit` when given. */
  range(lo: number, hi: number, limit = Infinity): HistorySample[] {
    const to = this.lowerBound(hi + 1);
    return this.items.slice(Math.max(this.lowerBound(lo), to - limit), to);
  }

  /** Index of the first held sample with t >= x. */
  private lowerBound(x: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.t < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
