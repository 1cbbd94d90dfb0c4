/** History rows (raw or downsampled) reshaped for the charts. */
export const SERIES = [
  { key: 'solar', label: 'Solar', color: 'var(--solar)' },
  { key: 'home', label: 'Home', color: 'var(--home)' },
  { key: 'grid', label: 'Grid', color: 'var(--grid)' },
  { key: 'battery', label: 'Battery', color: 'var(--battery)' },
] as const;

export type SeriesKey = (typeof SERIES)[number]['key'];

export type HistoryRow = { t: number; n?: number; soc: number | null } & Partial<Record<string, number | null>>;

export type ChartPoint = { t: number; soc: number | null } & Partial<Record<SeriesKey, number | null>> & Partial<Record<`${SeriesKey}Band`, [number, number] | null>>;

/** Means as lines; min/max (downsampled rows) as a band so short spikes stay visible. */
export function toChartPoints(rows: HistoryRow[]): ChartPoint[] {
  return rows.map((r) => {
    const p: ChartPoint = { t: r.t, soc: r.soc ?? null };
    for (const s of SERIES) {
      const mean = r[s.key] ?? null;
      p[s.key] = mean;
      const lo = r[`${s.key}Min`];
      const hi = r[`${s.key}Max`];
      p[`${s.key}Band`] = typeof lo === 'number' && typeof hi === 'number' ? [lo, hi] : null;
    }
    return p;
  });
}

export function hasBands(rows: HistoryRow[]): boolean {
  return rows.some((r) => typeof r.solarMin === 'number');
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const TICK_STEPS = [MIN, 2 * MIN, 5 * MIN, 10 * MIN, 15 * MIN, 30 * MIN, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY];

/**
 * X-axis ticks across the whole range (not only where samples are): round local times (every
 * 10 min, hour, 6 h, midnight…) chosen so about `target` ticks fit between `from` and `to`.
 */
export function timeTicks(from: number, to: number, target = 8): number[] {
  if (!(to > from)) return [];
  const step = TICK_STEPS.find((s) => (to - from) / s <= target) ?? TICK_STEPS[TICK_STEPS.length - 1]!;
  // Align to local time: whole days start at local midnight, shorter steps on the local clock.
  const first = new Date(from);
  if (step >= DAY) first.setHours(0, 0, 0, 0);
  else {
    const minutes = first.getHours() * 60 + first.getMinutes();
    const stepMin = step / MIN;
    first.setHours(0, Math.floor(minutes / stepMin) * stepMin, 0, 0);
  }
  const ticks: number[] = [];
  for (let d = first; d.getTime() <= to; ) {
    if (d.getTime() >= from) ticks.push(d.getTime());
    const next = new Date(d);
    // Day steps follow the calendar (a DST day is 23 or 25 hours), shorter steps the clock.
    if (step >= DAY) next.setDate(next.getDate() + step / DAY);
    else next.setTime(next.getTime() + step);
    d = next;
  }
  return ticks;
}
