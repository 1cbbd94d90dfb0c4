import { localMinute } from '../../../main/energy/tariff/local-time.js';
import { ratesAt, tariffConfigured, type TariffConfig } from '../../../main/energy/tariff/windows.js';
import type { HistoryRow } from './chart-data.js';

/**
 * The spacing the chart's points really have, in whole seconds: the mean gap between rows, leaving
 * out gaps over three times the median (where nothing was recorded) and under a third of it
 * (the last minutes of a live bridge that polls faster than its past was recorded), never less than the bucket size
 * asked for. A 1-hour view asks for 10 s buckets, but a bridge that polls once a minute fills only
 * one bucket in six, so its points are one per 60 s and the label says so (36 s buckets over
 * one-a-minute samples alternate 36 and 72 s gaps: still one per 60 s).
 */
export function sampleSpacingSeconds(rows: readonly HistoryRow[], every: number): number {
  if (rows.length < 2) return every;
  const gaps: number[] = [];
  for (let i = 1; i < rows.length; i++) gaps.push(rows[i]!.t - rows[i - 1]!.t);
  gaps.sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)]!;
  const kept = gaps.filter((g) => g >= median / 3 && g <= 3 * median);
  const mean = kept.reduce((a, g) => a + g, 0) / kept.length;
  // A bucket boundary now and then splits a minute unevenly (one gap of 70 s among 60 s ones): a mean
  // within 3 % of a whole ten seconds is that ten (61 s is "one per 60 s").
  const seconds = Math.round(mean / 1000);
  const ten = Math.round(seconds / 10) * 10;
  return Math.max(every, ten > 0 && Math.abs(seconds - ten) <= 0.03 * seconds ? ten : seconds);
}

export interface WindowTotals {
  solarKwh: number;
  homeKwh: number;
  importKwh: number;
  exportKwh: number;
  chargeKwh: number;
  dischargeKwh: number;
  /** Import priced at the rate in force minus export at the feed-in rate in force; null without a tariff. */
  cost: number | null;
  /** Hours the totals cover (gaps longer than two spacings are not bridged). */
  hours: number;
}

/**
 * Energy over the visible window: each row's mean power held for its own spacing (up to the next
 * row, but never across a gap of more than two spacings, where the bridge was not recording).
 * Grid is positive when importing, battery positive when charging. Cost uses the tariff's rates at
 * each row's local time; daily supply, super-export and zero-draw credits are day-level and left out.
 */
export function windowTotals(rows: readonly HistoryRow[], spacingS: number, tariff?: { config: TariffConfig; timeZone: string } | null): WindowTotals {
  const out = { solarKwh: 0, homeKwh: 0, importKwh: 0, exportKwh: 0, chargeKwh: 0, dischargeKwh: 0, cost: 0, hours: 0 };
  const spacingMs = spacingS * 1000;
  const priced = tariff && tariffConfigured(tariff.config) ? tariff : null;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const next = rows[i + 1];
    const gap = next ? next.t - r.t : spacingMs;
    const ms = gap > 2 * spacingMs ? spacingMs : gap;
    const h = ms / 3_600_000;
    out.hours += h;
    const w = (k: string) => (typeof r[k] === 'number' ? (r[k] as number) : 0);
    out.solarKwh += (Math.max(0, w('solar')) * h) / 1000;
    out.homeKwh += (Math.max(0, w('home')) * h) / 1000;
    const grid = w('grid');
    const imp = (Math.max(0, grid) * h) / 1000;
    const exp = (Math.max(0, -grid) * h) / 1000;
    out.importKwh += imp;
    out.exportKwh += exp;
    out.chargeKwh += (Math.max(0, w('battery')) * h) / 1000;
    out.dischargeKwh += (Math.max(0, -w('battery')) * h) / 1000;
    if (priced) {
      const rates = ratesAt(priced.config, localMinute(r.t, priced.timeZone));
      out.cost += imp * rates.importRate - exp * rates.feedInRate;
    }
  }
  return { ...out, cost: priced ? out.cost : null };
}
