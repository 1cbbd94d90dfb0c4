import { useEffect, useState } from 'react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { formatMoney } from '../../kit/format.js';

interface Day {
  date: string;
  solarKwh: number;
  homeKwh: number;
  importKwh: number;
  exportKwh: number;
  net: number | null;
  importCost: number | null;
  complete: boolean;
}

const axisTick = { fill: 'var(--muted)', fontSize: 12 };
const BARS = [
  { key: 'solarKwh', label: 'Solar', color: 'var(--solar)' },
  { key: 'homeKwh', label: 'Home', color: 'var(--home)' },
  { key: 'importKwh', label: 'Grid import', color: 'var(--grid)' },
  { key: 'exportKwh', label: 'Grid export', color: 'var(--grid-export)' },
] as const;

/** The last 30 local days as bars (kWh) with the day's net cost as a line, from GET /api/history/daily. */
export function DailyBars() {
  const [data, setData] = useState<{ currency: string | null; days: Day[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      api
        .get<{ currency: string | null; days: Day[] }>('/api/history/daily')
        .then((d) => live && (setData(d), setError(null)))
        .catch((err) => live && setError(messageOf(err)));
    void load();
    const t = setInterval(() => void load(), 60_000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, []);
  if (error) return <Banner kind="error">{error}</Banner>;
  if (!data) return <p className="muted">Loading…</p>;
  if (data.days.length === 0) return <p className="muted">No days recorded yet. Each local day is added as it goes.</p>;
  const currency = data.currency;
  const points = data.days.map((d) => ({ ...d, cost: d.net === null ? null : -d.net }));
  const total = currency ? points.reduce((a, p) => a + (p.cost ?? 0), 0) : null;
  return (
    <div data-testid="daily-bars">
      <div className="chart-box">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
            <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} tick={axisTick} stroke="var(--border)" minTickGap={20} />
            <YAxis yAxisId="kwh" tick={axisTick} stroke="var(--border)" width={58} label={{ value: 'kWh', angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 12 }} />
            {currency && <YAxis yAxisId="cost" orientation="right" tick={axisTick} stroke="var(--border)" width={64} tickFormatter={(v: number) => formatMoney(v, currency)} />}
            <Tooltip formatter={(v, name) => (name === 'Cost' && currency ? formatMoney(Number(v), currency) : `${Number(v).toFixed(2)} kWh`)} isAnimationActive={false} />
            <Legend />
            {BARS.map((b) => (
              <Bar key={b.key} yAxisId="kwh" dataKey={b.key} name={b.label} fill={b.color} isAnimationActive={false} />
            ))}
            {currency && <Line yAxisId="cost" dataKey="cost" name="Cost" stroke="var(--text)" strokeWidth={2} isAnimationActive={false} />}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <p className="small muted" data-testid="daily-summary">
        {points.length} days{total !== null && currency ? `; net cost over the period ${formatMoney(total, currency)} (a negative cost is a credit)` : '; set a tariff in Settings to see cost'}. Today is still running.{' '}
        <a href="/api/history/daily?format=csv" download>
          Daily totals as CSV
        </a>
      </p>
    </div>
  );
}
