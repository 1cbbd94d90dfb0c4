import type { HistorySample } from './sample.js';

/**
 * The in-memory live window: the most recent samples in time order, at most `capacity` of them.
 * It is always a suffix of the durable copy (its newest sample loaded at start, then appended alongside it),
 * so a read that needs anything older than `firstT` goes to the durable copy.
 */
export class MemoryWindow {
  private items: HistorySample[] = [];
  /** Samples before this index are dropped: the array is cut in bulk, not shifted a poll at a time (20,000 pointers moved each). */
  private head = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.items.length - this.head;
  }

  get firstT(): number | null {
    return this.items[this.head]?.t ?? null;
  }

  get lastT(): number | null {
    return this.size ? this.items.at(-1)!.t : null;
  }

  /** Appends a sample newer than the last one; returns false (and keeps nothing) otherwise. */
  push(sample: HistorySample): boolean {
    const last = this.lastT;
    if (last !== null && sample.t <= last) return false;
    this.items.push(sample);
    this.dropBefore(Math.max(this.head, this.items.length - this.capacity));
    return true;
  }

  /** Replaces the content (used when loading from the durable copy); input is oldest first. */
  load(samples: HistorySample[]): void {
    this.items = samples.slice(-this.capacity);
    this.head = 0;
  }

  /** Drops samples older than `cutoff`. */
  trimBefore(cutoff: number): void {
    this.dropBefore(this.lowerBound(cutoff));
  }

  private dropBefore(index: number): void {
    this.head = index;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Samples with lo <= t <= hi, oldest first; only the most recent `limit` when given. */
  range(lo: number, hi: number, limit = Infinity): HistorySample[] {
    const to = this.lowerBound(hi + 1);
    return this.items.slice(Math.max(this.lowerBound(lo), to - limit), to);
  }

  /** Index of the first held sample with t >= x. */
  private lowerBound(x: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.t < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
