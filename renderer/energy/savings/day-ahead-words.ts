import { formatKwh, formatMoney } from '../../kit/format.js';
import { formatPerKwh } from '../prices/price-words.js';
import { formatClockTime } from '../DemoClock.js';
import type { Snapshot } from '../types.js';

type Outlook = NonNullable<Snapshot['outlook']>;

/**
 * When the battery will be full, as the day ahead reckons it (usual load and the solar forecast):
 * the one figure both the battery card and The day ahead show.
 */
export function fullAtText(battery: NonNullable<Outlook['battery']>): string {
  return battery.fullAt ? `Full at about ${formatClockTime(Date.parse(battery.fullAt))}.` : 'Not expected to be full today.';
}

/**
 * Today's solar against its forecast. "So far" above "expected" says the forecast was low instead
 * of standing beside a smaller number as if both held.
 */
export function solarTodayText(solar: Outlook['solar']): string {
  const { expectedKwh, actualKwh } = solar.today;
  const tomorrow = `tomorrow ${formatKwh(solar.tomorrow.expectedKwh, 1)}`;
  if (expectedKwh === null) return '';
  if (actualKwh !== null && actualKwh > expectedKwh) {
    return `Solar today ${formatKwh(actualKwh, 1)} so far, more than the ${formatKwh(expectedKwh, 1)} forecast (the forecast was low); ${tomorrow}.`;
  }
  return `Solar expected today ${formatKwh(expectedKwh, 1)} (${formatKwh(actualKwh, 1)} so far), ${tomorrow}.`;
}

type OutlookPrices = NonNullable<Outlook['prices']>;
type Hour = NonNullable<OutlookPrices['cheapest']>;
const span = (h: Hour) => `${formatClockTime(Date.parse(h.startsAt))}–${formatClockTime(Date.parse(h.endsAt))}`;

/** "Cheapest hour 02:00–03:00 (3.8 c/kWh on average); dearest 17:30–18:30 ($3.00/kWh)." from the price forecast. */
export function priceHoursText(p: OutlookPrices): string {
  if (!p.cheapest || !p.dearest) return 'Not enough forecast prices yet to name the cheapest and dearest hours.';
  return `Cheapest hour ${span(p.cheapest)} (${formatPerKwh(p.cheapest.averagePerKwh, p.currency)} on average); dearest ${span(p.dearest)} (${formatPerKwh(p.dearest.averagePerKwh, p.currency)}).`;
}

/** What the battery's expected evening use is worth at the forecast prices (null when the battery is not simulated). */
export function eveningWorthText(p: OutlookPrices): string | null {
  const e = p.evening;
  if (!e) return null;
  if (e.batteryKwh <= 0) return `The battery is not expected to give anything this evening (from ${formatClockTime(Date.parse(e.fromAt))}).`;
  return `This evening (from ${formatClockTime(Date.parse(e.fromAt))}) the battery is expected to give ${formatKwh(e.batteryKwh, 1)}, worth ${formatMoney(e.worth, p.currency)} at the forecast prices.`;
}
