import { localMinute, nextDate, startOfLocalDay } from '../tariff/local-time.js';

const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** The zone's offset (ms, wall clock minus UTC) at instant `t`. */
function offsetAt(t: number, tz: string): number {
  const m = localMinute(t, tz);
  const [y, mo, d] = m.date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, mo - 1, d) + m.minute * 60_000 - Math.floor(t / 60_000) * 60_000;
}

/**
 * Length of local `date` in ms (23 h or 25 h on a DST day). The local day lies between UTC midnight
 * of the day before and of the day after next for any offset; widened to whole UTC weeks, when the
 * zone's offset is the same at both ends the day has 24 hours (zones change their clocks months
 * apart, never twice in two weeks), and only otherwise is the calendar walked. `offsets` caches
 * per instant across calls: a year of days costs about 53 zone lookups.
 */
export function dayLengthMs(date: string, tz: string, offsets: Map<number, number> = new Map()): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const off = (t: number) => {
    let v = offsets.get(t);
    if (v === undefined) offsets.set(t, (v = offsetAt(t, tz)));
    return v;
  };
  const lo = Math.floor((utcMidnight - DAY) / WEEK) * WEEK;
  const hi = Math.ceil((utcMidnight + 2 * DAY) / WEEK) * WEEK;
  if (off(lo) === off(hi)) return DAY;
  return startOfLocalDay(nextDate(date), tz) - startOfLocalDay(date, tz);
}
