import type { PriceInterval } from '../prices/price-book.js';

/** A stretch of one hour of consecutive price intervals and its time-weighted import price. */
export interface PriceHour {
  startsAt: number;
  endsAt: number;
  averagePerKwh: number;
}

const HOUR = 3_600_000;

/**
 * The cheapest and dearest whole hour (by import price, weighted by time) of the intervals that
 * begin in `[from, to)`: each hour starts at an interval's start and runs over intervals that follow
 * one another without a gap (5-minute Amber intervals give 12 to an hour, Octopus half hours 2). The
 * earliest wins a tie. Null where no hour of consecutive intervals is known.
 */
export function priceHours(intervals: readonly PriceInterval[], from: number, to: number): { cheapest: PriceHour | null; dearest: PriceHour | null } {
  const list = intervals.filter((iv) => iv.start >= from && iv.start < to).sort((a, b) => a.start - b.start);
  let cheapest: PriceHour | null = null;
  let dearest: PriceHour | null = null;
  for (let i = 0; i < list.length; i++) {
    const startsAt = list[i]!.start;
    const endsAt = startsAt + HOUR;
    let covered = startsAt;
    let sum = 0;
    for (let j = i; j < list.length && covered < endsAt; j++) {
      const iv = list[j]!;
      if (iv.start !== covered) break; // a gap: no whole hour from here
      const until = Math.min(iv.end, endsAt);
      sum += iv.importPerKwh * (until - iv.start);
      covered = until;
    }
    if (covered < endsAt) continue;
    const hour = { startsAt, endsAt, averagePerKwh: sum / HOUR };
    if (!cheapest || hour.averagePerKwh < cheapest.averagePerKwh) cheapest = hour;
    if (!dearest || hour.averagePerKwh > dearest.averagePerKwh) dearest = hour;
  }
  return { cheapest, dearest };
}
