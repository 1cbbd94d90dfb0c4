import { zoneOffset } from '../../core/time-zone.js';

/**
 * Local wall-clock time in an IANA zone, for day boundaries and time-of-use windows (DESIGN rule 7).
 * Every zone in use today has whole-minute offsets, so each UTC minute maps to one local minute;
 * lookups are cached per UTC minute.
 */
export interface LocalMinute {
  /** Local date `YYYY-MM-DD`. */
  date: string;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  /** Minutes since local midnight on the wall clock (0..1439). */
  minute: number;
}

export const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** The local minute that contains instant `t` in zone `tz`. */
export function localMinute(t: number, tz: string): LocalMinute {
  const wall = new Date(t + zoneOffset(tz)(t));
  return {
    date: `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`,
    weekday: (wall.getUTCDay() + 6) % 7,
    minute: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
  };
}

/** Offset of the zone at `t` in ms (local wall clock minus UTC). */
const offsetAt = (t: number, tz: string): number => zoneOffset(tz)(t);

/** The instant local `date` (YYYY-MM-DD) begins in `tz` (its first existing wall-clock minute). */
export function startOfLocalDay(date: string, tz: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wallMidnight = Date.UTC(y, m - 1, d);
  let t = wallMidnight - offsetAt(wallMidnight, tz);
  t = wallMidnight - offsetAt(t, tz);
  // Where midnight itself does not exist (a DST jump at 00:00), the day starts at the jump.
  while (localMinute(t, tz).date !== date) t += 60_000 * 15;
  while (localMinute(t - 60_000, tz).date === date) t -= 60_000;
  return t;
}

/** The local date after `date`. */
export function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const n = new Date(Date.UTC(y, m - 1, d + 1));
  return `${n.getUTCFullYear()}-${pad(n.getUTCMonth() + 1)}-${pad(n.getUTCDate())}`;
}

/** Minutes since midnight of an `HH:MM` string. */
export function minuteOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** A single-entry cache of `localMinute` keyed by UTC minute and zone (consecutive polls share a minute). */
export function createLocalMinuteCache(): (t: number, tz: string) => LocalMinute {
  let minute = NaN;
  let zone = '';
  let value: LocalMinute | null = null;
  return (t, tz) => {
    const m = Math.floor(t / 60_000);
    if (m !== minute || tz !== zone || !value) {
      minute = m;
      zone = tz;
      value = localMinute(t, tz);
    }
    return value;
  };
}
