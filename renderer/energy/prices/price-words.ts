import { formatMoney } from '../../kit/format.js';
import { formatClockTime } from '../DemoClock.js';
import type { PriceDescriptor, PricePoint, Prices } from './types.js';

/** The minor unit people quote energy prices in: pence in the UK, cents elsewhere. */
const MINOR: Record<string, string> = { GBP: 'p', EUR: 'ct', USD: '¢' };

/** A price per kWh as people quote it: "25.3 c/kWh", "−4.0 p/kWh"; a price of a unit or more in the main unit ("$12.00/kWh"). */
export function formatPerKwh(v: number | null | undefined, currency: string): string {
  if (v === null || v === undefined) return '—';
  if (Math.abs(v) >= 1) return `${formatMoney(v, currency)}/kWh`;
  const minor = (v * 100).toFixed(1).replace('-', '−');
  return `${minor} ${MINOR[currency] ?? 'c'}/kWh`;
}

const DESCRIPTOR_WORDS: Record<PriceDescriptor, string> = {
  negative: 'below zero',
  extremelyLow: 'extremely low',
  veryLow: 'very low',
  low: 'low',
  neutral: 'average',
  high: 'high',
  spike: 'spike',
};

/** The descriptor as words ("very low", "spike"); Octopus' rank in the day reads the same. */
export const descriptorWords = (d: PriceDescriptor | null): string | null => (d === null ? null : DESCRIPTOR_WORDS[d]);

/**
 * What the prices mean right now, in words: negative feed-in ("export is costing money now"), a spike,
 * being paid to use power, an estimate, and stale prices. Empty when there is nothing to say.
 */
export function priceExplainer(p: Prices, now: number): string[] {
  const out: string[] = [];
  const c = p.current;
  if (p.stale) out.push(`Prices are out of date (last fetched ${p.fetchedAt ? formatClockTime(Date.parse(p.fetchedAt)) : 'never'}): the last known and forecast prices are used until the source answers again.`);
  if (!c) {
    out.push('No price is known for now: the tariff’s fixed rates apply.');
    return out;
  }
  const until = formatClockTime(Date.parse(c.end));
  if (c.spike) out.push(`Price spike: importing costs ${formatPerKwh(c.importPerKwh, p.currency)} until ${until}. Use the battery or put off big loads.`);
  if (c.importPerKwh < 0) out.push(`You are paid to use power now (${formatPerKwh(c.importPerKwh, p.currency)} until ${until}): a good time to charge the battery or run big loads.`);
  if (c.feedInPerKwh !== null && c.feedInPerKwh < 0) out.push(`Export is costing money now (${formatPerKwh(c.feedInPerKwh, p.currency)} for each kWh sent until ${until}): keep the power at home or in the battery.`);
  if (c.estimate) out.push('The current price is an estimate and may still change.');
  const next = p.forecast.find((f) => Date.parse(f.start) > now && f.spike);
  if (!c.spike && next) out.push(`A spike is forecast from ${formatClockTime(Date.parse(next.start))} (${formatPerKwh(next.importPerKwh, p.currency)}).`);
  return out;
}

/** One-line summary of a forecast for a chart's accessible name. */
export function forecastSummary(points: readonly PricePoint[], currency: string): string {
  if (!points.length) return 'No price forecast.';
  const min = points.reduce((a, b) => (b.importPerKwh < a.importPerKwh ? b : a));
  const max = points.reduce((a, b) => (b.importPerKwh > a.importPerKwh ? b : a));
  return `Import price forecast: lowest ${formatPerKwh(min.importPerKwh, currency)} at ${formatClockTime(Date.parse(min.start))}, highest ${formatPerKwh(max.importPerKwh, currency)} at ${formatClockTime(Date.parse(max.start))}.`;
}
