import { zoneOffset } from '../../../../main/core/time-zone.js';
import { nextRun, parseCron } from '../../../../main/recordings/cron.js';

/**
 * A preview of a cron schedule while it is typed: the next run times in the service's time zone and
 * plain words for common patterns. The times come from the scheduler's own reader (main/recordings/
 * cron.ts), so the page shows what the service will run; the server validates on save.
 */

/** The next `count` run times (epoch ms) after `from`, in zone `tz`; [] when the expression does not parse. */
export function nextRuns(expr: string, tz: string, from: number, count = 3): number[] {
  const spec = parseCron(expr);
  if (!spec) return [];
  const offset = zoneOffset(tz);
  const out: number[] = [];
  for (let t: number | null = from; out.length < count && (t = nextRun(spec, t, offset)) !== null; ) out.push(t);
  return out;
}

const two = (n: number) => String(n).padStart(2, '0');
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Plain words for common schedules ("every 30 minutes", "every day at 03:15"), or null. */
export function describeCron(expr: string): string | null {
  const f = expr.trim().split(/\s+/);
  if (f.length !== 5 || !parseCron(expr)) return null;
  const [m, h, dom, mon, dow] = f as [string, string, string, string, string];
  const rest = dom === '*' && mon === '*';
  if (rest && dow === '*' && h === '*') {
    if (m === '*') return 'every minute';
    const step = /^\*\/(\d+)$/.exec(m);
    if (step) return `every ${step[1]} minutes`;
    if (/^\d+$/.test(m)) return `every hour at :${two(Number(m))}`;
  }
  if (rest && /^\d+$/.test(m) && h !== '*') {
    const step = /^\*\/(\d+)$/.exec(h);
    if (step && dow === '*') return `every ${step[1]} hours at :${two(Number(m))}`;
    if (/^\d+(,\d+)*$/.test(h)) {
      const times = h.split(',').map((x) => `${two(Number(x))}:${two(Number(m))}`).join(', ');
      if (dow === '*') return `every day at ${times}`;
      const days = parseCron(`0 0 * * ${dow}`)?.weekdays;
      if (days) return `every ${WEEKDAY_NAMES.filter((_, d) => days[d]).join(', ')} at ${times}`;
    }
  }
  return null;
}
