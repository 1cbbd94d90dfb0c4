import type { ZoneOffset } from '../core/time-zone.js';

/**
 * The next run of a cron expression in a time zone, with node-cron 4's meaning (every field must
 * match, seconds optional, names, ranges that wrap, steps, lists, `?`, `7` for Sunday, `@daily`
 * and the other nicknames) computed from zone offsets rather than `Intl`. Expressions using
 * node-cron's rarer forms (`L`, `W`, `#`) are left to node-cron itself (`parseCron` returns null).
 */
export interface CronSpec {
  seconds: number[];
  minutes: number[];
  hours: number[];
  /** Indexed by value: days of month 1..31, months 1..12, weekdays 0..6 (Sunday 0). */
  days: boolean[];
  months: boolean[];
  weekdays: boolean[];
}

const NICKNAMES: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FULL_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const FULL_WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** second, minute, hour, day of month, month, weekday (7 is read as 0). */
const BOUNDS: Array<[number, number]> = [[0, 59], [0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];
const TOKEN = /^(\*|\d+|\d+-\d+)(?:\/(\d+))?$/;
/** How far ahead a match is looked for (node-cron's horizon), in days. */
const MAX_DAYS = 366 * 100;

/** One field's allowed values, ascending; null when it uses a form this parser leaves to node-cron. */
function field(text: string, index: number): number[] | null {
  const [min, max] = BOUNDS[index]!;
  const names = index === 4 ? [FULL_MONTHS, MONTHS] : index === 5 ? [FULL_WEEKDAYS, WEEKDAYS] : null;
  let src = text.toLowerCase();
  if (names) for (const list of names) list.forEach((name, i) => (src = src.replaceAll(name, String(index === 4 ? i + 1 : i))));
  if (src === '?' && (index === 3 || index === 5)) src = '*';
  const values = new Set<number>();
  for (const token of src.split(',')) {
    const m = TOKEN.exec(token);
    if (!m) return null;
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (!(step >= 1)) return null;
    let first = min;
    let last = index === 5 ? 6 : max;
    if (m[1] !== '*') {
      const [a, b] = m[1]!.split('-').map(Number) as [number, number?];
      if (b === undefined && m[2] !== undefined) return null;
      first = a;
      last = b ?? a;
    }
    if (first < min || first > max || last < min || last > max) return null;
    // A range that wraps (22-2) runs through the end of the field's range.
    const size = (index === 5 ? 6 : max) - min + 1;
    const span = first <= last ? last - first : (((last - first) % size) + size) % size;
    for (let off = 0; off <= span; off += step) {
      let v = first + off;
      if (first > last && v > max) v -= size;
      values.add(index === 5 && v === 7 ? 0 : v);
    }
  }
  return [...values].sort((a, b) => a - b);
}

/** Parses `expr` (already validated by node-cron), or null when it needs node-cron's rarer forms. */
export function parseCron(expr: string): CronSpec | null {
  const text = NICKNAMES[expr.trim().toLowerCase()] ?? expr;
  const parts = text.trim().split(/\s+/);
  if (parts.length === 5) parts.unshift('0');
  if (parts.length !== 6) return null;
  const fields = parts.map(field);
  if (fields.some((f) => !f || f.length === 0)) return null;
  const flags = (values: number[], size: number) => {
    const out = new Array<boolean>(size).fill(false);
    for (const v of values) out[v] = true;
    return out;
  };
  const [seconds, minutes, hours, days, months, weekdays] = fields as number[][];
  return { seconds: seconds!, minutes: minutes!, hours: hours!, days: flags(days!, 32), months: flags(months!, 13), weekdays: flags(weekdays!, 7) };
}

const DAY_MS = 86_400_000;

/**
 * The instants a wall-clock time (ms, read as if UTC) falls on, ascending: none in a spring-forward
 * gap, two in a fall-back overlap, else one. Offsets a day either side bound any one transition.
 */
function instantsOf(wall: number, offset: ZoneOffset): number[] {
  const out: number[] = [];
  for (const o of [offset(wall - DAY_MS), offset(wall + DAY_MS)]) {
    const t = wall - o;
    if (offset(t) === o && !out.includes(t)) out.push(t);
  }
  return out.sort((a, b) => a - b);
}

/**
 * Wall times this far before the current one cannot be a later instant: no zone has turned its
 * clocks back by more than this in one step (daylight saving moves 0.5-2 h; only date-line moves
 * such as Samoa's in 2011 went further, and that one went forward).
 */
const BACKWARD_STEP_MS = 3 * 3_600_000;

/**
 * The first instant after `after` (ms) whose wall-clock time in the zone matches, or null if none
 * within 100 years. Around daylight saving: wall times a spring-forward skips do not run (as with
 * node-cron); in the hour a fall-back repeats, an expression for every hour (`*` hours) runs on both
 * passes, so "every 30 minutes" stays every 30 minutes of real time, and any other runs once, on the
 * first pass, so "at 01:30" runs once that night (node-cron ran some of these on the second pass and
 * skipped the repeated hour's runs before it).
 */
export function nextRun(spec: CronSpec, after: number, offset: ZoneOffset): number | null {
  const base = Math.floor(after / 1000) * 1000;
  const low = base + offset(base) - BACKWARD_STEP_MS;
  const everyHour = spec.hours.length === 24;
  let best: number | null = null;
  let bestWall = 0;
  const start = new Date(low);
  let day = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
  for (let i = 0; i < MAX_DAYS; i++, day += DAY_MS) {
    if (best !== null && day > bestWall + BACKWARD_STEP_MS) return best;
    const d = new Date(day);
    if (!spec.months[d.getUTCMonth() + 1] || !spec.days[d.getUTCDate()] || !spec.weekdays[d.getUTCDay()]) continue;
    for (const h of spec.hours) {
      const hour = day + h * 3_600_000;
      if (hour + 3_600_000 <= low) continue;
      for (const m of spec.minutes) {
        const minute = hour + m * 60_000;
        if (minute + 60_000 <= low) continue;
        for (const s of spec.seconds) {
          const wall = minute + s * 1000;
          // A later wall time can only give an earlier instant within one backward step.
          if (best !== null && wall > bestWall + BACKWARD_STEP_MS) return best;
          const instants = instantsOf(wall, offset);
          for (const t of everyHour ? instants : instants.slice(0, 1)) {
            if (t > base && (best === null || t < best)) {
              best = t;
              bestWall = wall;
            }
          }
        }
      }
    }
  }
  return best;
}
