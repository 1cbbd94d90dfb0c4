/**
 * Prices that change through the day (Amber's 5/30-minute intervals, Octopus Agile's half hours),
 * as every part of the energy bridge reads them. The sources (amber.ts, octopus.ts) turn each API's
 * shape and sign convention into these intervals; the ledger, savings, outlook, alerts, MQTT and
 * metrics read only this. With no live source, there is no book and the tariff's fixed windows apply.
 *
 * Money is in the currency's main unit per kWh (dollars, pounds), as the tariff settings are.
 * Signs are the household's: `importPerKwh` is what a kWh bought costs (below zero: the household is
 * paid to consume); `feedInPerKwh` is what a kWh sent earns (below zero: exporting costs money).
 */
export type PriceDescriptor = 'negative' | 'extremelyLow' | 'veryLow' | 'low' | 'neutral' | 'high' | 'spike';

export interface PriceInterval {
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive. */
  end: number;
  importPerKwh: number;
  /** Null where the source publishes no feed-in price (then the tariff's feed-in rate applies). */
  feedInPerKwh: number | null;
  /** Amber's descriptor; for Octopus the interval's rank in its day mapped onto the same words. */
  descriptor: PriceDescriptor | null;
  /** Settled (`actual`), the one in progress (`current`) or published ahead (`forecast`). */
  kind: 'actual' | 'current' | 'forecast';
  /** Amber's `estimate`: the price of the current interval may still change. */
  estimate: boolean;
  /** Amber's `spikeStatus` `spike` (or a descriptor of `spike`). */
  spike: boolean;
}

export interface PriceBook {
  readonly source: 'amber' | 'octopus';
  /** The interval covering `t`, or null when none is known (the ledger then uses the fixed rates). */
  at(t: number): PriceInterval | null;
  /** Known intervals overlapping `[from, to)`, in time order. */
  between(from: number, to: number): PriceInterval[];
  /** When prices were last fetched successfully (epoch ms), null before the first. */
  fetchedAt(): number | null;
  /** True when the source has not answered for longer than its interval allows (said on the pages). */
  stale(): boolean;
}

/** A book over a fixed list of intervals (tests, the disk cache's contents): binary search by time. */
export function bookOf(source: PriceBook['source'], list: readonly PriceInterval[], fetchedAt: number | null = null, stale = false): PriceBook {
  const sorted = [...list].sort((a, b) => a.start - b.start);
  const find = (t: number) => {
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const iv = sorted[mid]!;
      if (t < iv.start) hi = mid - 1;
      else if (t >= iv.end) lo = mid + 1;
      else return iv;
    }
    return null;
  };
  return {
    source,
    at: find,
    between: (from, to) => sorted.filter((iv) => iv.end > from && iv.start < to),
    fetchedAt: () => fetchedAt,
    stale: () => stale,
  };
}
