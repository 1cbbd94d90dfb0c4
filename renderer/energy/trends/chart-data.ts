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
