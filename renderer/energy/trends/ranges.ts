/** The trends ranges and the history query each one makes. */
export type RangeKey = '1h' | '24h' | '7d' | 'custom';

export const RANGES: Array<{ key: RangeKey; label: string; spanMs: number; every: number }> = [
  { key: '1h', label: '1 hour', spanMs: 3_600_000, every: 10 },
  { key: '24h', label: '24 hours', spanMs: 86_400_000, every: 120 },
  { key: '7d', label: '7 days', spanMs: 7 * 86_400_000, every: 900 },
  { key: 'custom', label: 'Custom', spanMs: 0, every: 0 },
];

/** About this many points per chart: enough for detail, light enough for a phone. */
const TARGET_POINTS = 600;

export interface HistoryQuery {
  since: number;
  until: number;
  every: number;
}

/** `every` for an arbitrary span: whole seconds, at least 1. */
export function everyFor(spanMs: number): number {
  return Math.max(1, Math.round(spanMs / TARGET_POINTS / 1000));
}

export function queryFor(key: RangeKey, now: number, custom: { from: number; to: number }): HistoryQuery {
  if (key === 'custom') return { since: custom.from, until: custom.to, every: everyFor(custom.to - custom.from) };
  const r = RANGES.find((x) => x.key === key)!;
  return { since: now - r.spanMs, until: now, every: r.every };
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
