import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SERIES, timeTicks, type ChartPoint, type SeriesKey } from './chart-data.js';
import { Readout } from './Readout.js';

const axisTick = { fill: 'var(--muted)', fontSize: 12 };

function tickTime(spanMs: number) {
  return (t: number) => {
    const d = new Date(t);
    if (spanMs > 2 * 86_400_000) return d.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric' });
    return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  };
}

const kw = (w: number) => (Math.abs(w) >= 1000 ? `${(w / 1000).toFixed(1)}k` : `${w}`);

/** Power of the selected series: mean lines over translucent min/max bands. */
export function PowerChart({ points, visible, domain }: { points: ChartPoint[]; visible: Set<SeriesKey>; domain: [number, number] }) {
  return (
    <div className="chart-box" data-testid="power-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="t" type="number" scale="time" domain={domain} ticks={timeTicks(domain[0], domain[1])} interval="preserveStartEnd" tickFormatter={tickTime(domain[1] - domain[0])} tick={axisTick} stroke="var(--border)" minTickGap={24} allowDataOverflow />
          <YAxis tickFormatter={kw} tick={axisTick} stroke="var(--border)" width={58} unit="W" />
          <Tooltip content={<Readout visible={visible} />} isAnimationActive={false} />
          {SERIES.filter((s) => visible.has(s.key)).map((s) => (
            <Area key={`${s.key}-band`} dataKey={`${s.key}Band`} stroke="none" fill={s.color} fillOpacity={0.18} isAnimationActive={false} activeDot={false} connectNulls={false} />
          ))}
          {SERIES.filter((s) => visible.has(s.key)).map((s) => (
            <Line key={s.key} dataKey={s.key} name={s.label} stroke={s.color} strokeWidth={1.8} dot={false} isAnimationActive={false} connectNulls={false} />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Battery state of charge in percent. */
export function SocChart({ points, domain }: { points: ChartPoint[]; domain: [number, number] }) {
  return (
    <div className="chart-box small" data-testid="soc-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="t" type="number" scale="time" domain={domain} ticks={timeTicks(domain[0], domain[1])} interval="preserveStartEnd" tickFormatter={tickTime(domain[1] - domain[0])} tick={axisTick} stroke="var(--border)" minTickGap={24} allowDataOverflow />
          <YAxis domain={[0, 100]} tick={axisTick} stroke="var(--border)" width={58} unit="%" />
          <Tooltip content={<Readout visible={new Set()} showSoc />} isAnimationActive={false} />
          <Area dataKey="soc" name="Battery" stroke="var(--soc)" fill="var(--soc)" fillOpacity={0.15} strokeWidth={1.8} isAnimationActive={false} connectNulls={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
