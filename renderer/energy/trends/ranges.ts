/**
 * The trends ranges and the history query each one makes. Past the raw window (7 days by default)
 * the bridge answers from its minute and hour averages, so the longer ranges ask for whole hours.
 */
export type RangeKey = '1h' | '24h' | '7d' | '30d' | '1y' | 'all' | 'custom';

const DAY = 86_400_000;
export const RANGES: Array<{ key: RangeKey; label: string; spanMs: number; every: number }> = [
  { key: '1h', label: '1 hour', spanMs: 3_600_000, every: 10 },
  { key: '24h', label: '24 hours', spanMs: DAY, every: 120 },
  { key: '7d', label: '7 days', spanMs: 7 * DAY, every: 900 },
  { key: '30d', label: '30 days', spanMs: 30 * DAY, every: 3600 },
  { key: '1y', label: '1 year', spanMs: 365 * DAY, every: 12 * 3600 },
  // Everything kept: from the epoch, one point a day (the bridge keeps hourly averages for good).
  { key: 'all', label: 'All', spanMs: Infinity, every: 86_400 },
  { key: 'custom', label: 'Custom', spanMs: 0, every: 0 },
];

/** About this many points per chart: enough for detail, light enough for a phone. */
const TARGET_POINTS = 600;

export interface HistoryQuery {
  since: number;
  until: number;
  every: number;
}

/**
 * `every` for an arbitrary span: whole seconds, at least 1; a whole number of minutes from a minute
 * up, so a range older than the raw window is answered from the minute and hour averages.
 */
export function everyFor(spanMs: number): number {
  const s = Math.max(1, Math.round(spanMs / TARGET_POINTS / 1000));
  return s < 60 ? s : Math.round(s / 60) * 60;
}

export function queryFor(key: RangeKey, now: number, custom: { from: number; to: number }): HistoryQuery {
  if (key === 'custom') return { since: custom.from, until: custom.to, every: everyFor(custom.to - custom.from) };
  const r = RANGES.find((x) => x.key === key)!;
  return { since: Number.isFinite(r.spanMs) ? now - r.spanMs : 0, until: now, every: r.every };
}

export function historyUrl(q: HistoryQuery): string {
  return `/api/history?since=${q.since}&until=${q.until}&every=${q.every}`;
}

/** `<input type="datetime-local">` value for an epoch ms, in local time. */
export function toLocalInput(t: number): string {
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(v: string): number | null {
  const t = new Date(v).getTime();
  return Number.isFinite(t) ? t : null;
}
