import { formatKwh } from '../../kit/format.js';
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
