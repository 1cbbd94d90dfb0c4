/**
 * A preview of a cron schedule while it is typed: the next run times in the service's time zone and
 * a plain-words description of common patterns. Five fields (minute hour day month weekday) or six
 * (seconds first), with `*`, lists, ranges, steps and month/day names. The server validates on save
 * and its scheduler is what runs; this only helps a person read the expression.
 */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface Spec {
  second: Set<number>;
  minute: Set<number>;
  hour: Set<number>;
  dom: Set<number>;
  month: Set<number>;
  dow: Set<number>;
  domAny: boolean;
  dowAny: boolean;
}

function parseField(text: string, min: number, max: number, names?: string[]): Set<number> | null {
  const out = new Set<number>();
  const value = (s: string): number | null => {
    const lower = s.toLowerCase();
    if (names) {
      const i = names.findIndex((n) => lower.startsWith(n) && lower.length >= 3);
      if (i >= 0) return i + (min === 1 ? 1 : 0);
    }
    return /^\d+$/.test(s) ? Number(s) : null;
  };
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    if (range === undefined || part.split('/').length > 2) return null;
    const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) ? Number(stepText) : NaN;
    if (!Number.isFinite(step) || step < 1) return null;
    let lo: number | null;
    let hi: number | null;
    if (range === '*') {
      lo = min;
      hi = max;
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      lo = value(a ?? '');
      hi = value(b ?? '');
    } else {
      lo = value(range);
      hi = stepText === undefined ? lo : max;
    }
    if (lo === null || hi === null || lo < min || hi > max || lo > hi) return null;
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

export function parseCron(expr: string): Spec | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return null;
  const [sec, min, hour, dom, month, dow] = fields.length === 6 ? fields : ['0', ...fields];
  const second = parseField(sec!, 0, 59);
  const minute = parseField(min!, 0, 59);
  const hours = parseField(hour!, 0, 23);
  const days = parseField(dom!, 1, 31);
  const months = parseField(month!, 1, 12, MONTHS);
  const dows = parseField(dow!, 0, 7, DAYS);
  if (!second || !minute || !hours || !days || !months || !dows) return null;
  if (dows.has(7)) dows.add(0);
  return { second, minute, hour: hours, dom: days, month: months, dow: dows, domAny: dom === '*', dowAny: dow === '*' };
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function wallClock(t: number, tz: string) {
  let f = partsFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
    partsFormatters.set(tz, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(new Date(t))) p[x.type] = x.value;
  return { month: Number(p.month), day: Number(p.day), hour: Number(p.hour) % 24, minute: Number(p.minute), dow: DAYS.indexOf((p.weekday ?? '').slice(0, 3).toLowerCase()) };
}

/** The next `count` run times (epoch ms) after `from`, in zone `tz`; [] when the expression does not parse. */
export function nextRuns(expr: string, tz: string, from: number, count = 3): number[] {
  const spec = parseCron(expr);
  if (!spec) return [];
  const out: number[] = [];
  let t = Math.floor(from / 60_000) * 60_000;
  const limit = from + 400 * 86_400_000;
  while (out.length < count && t < limit) {
    const w = wallClock(t, tz);
    const dayOk = spec.domAny || spec.dowAny ? spec.dom.has(w.day) && spec.dow.has(w.dow) : spec.dom.has(w.day) || spec.dow.has(w.dow);
    if (!spec.month.has(w.month) || !dayOk || !spec.hour.has(w.hour)) {
      t += (60 - w.minute) * 60_000; // next hour
      continue;
    }
    if (spec.minute.has(w.minute)) {
      for (const s of [...spec.second].sort((a, b) => a - b)) {
        const at = t + s * 1000;
        if (at > from && out.length < count) out.push(at);
      }
    }
    t += 60_000;
  }
  return out;
}

const two = (n: number) => String(n).padStart(2, '0');

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
      const days = parseCron(`0 0 * * ${dow}`)?.dow;
      if (days) return `every ${[...days].filter((d) => d < 7).sort().map((d) => ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][d]).join(', ')} at ${times}`;
    }
  }
  return null;
}
