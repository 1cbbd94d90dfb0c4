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

const WEEKDAY_INDEX: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };
export const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short', hourCycle: 'h23' });
    formatters.set(tz, f);
  }
  return f;
}

function parts(t: number, tz: string): { y: number; mo: number; d: number; h: number; mi: number; wd: string } {
  const out: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(new Date(t))) out[p.type] = p.value;
  return { y: Number(out.year), mo: Number(out.month), d: Number(out.day), h: Number(out.hour) % 24, mi: Number(out.minute), wd: out.weekday! };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local minute that contains instant `t` in zone `tz`. */
export function localMinute(t: number, tz: string): LocalMinute {
  const p = parts(t, tz);
  return { date: `${p.y}-${pad(p.mo)}-${pad(p.d)}`, weekday: WEEKDAY_INDEX[p.wd] ?? 0, minute: p.h * 60 + p.mi };
}

/** Offset of the zone at `t` in ms (local wall clock minus UTC). */
function offsetAt(t: number, tz: string): number {
  const p = parts(t, tz);
  const wall = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi);
  return wall - (t - (((t % 60_000) + 60_000) % 60_000));
}

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
