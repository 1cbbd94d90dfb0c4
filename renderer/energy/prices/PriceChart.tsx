import { formatClockTime } from '../DemoClock.js';
import { forecastSummary, formatPerKwh } from './price-words.js';
import type { PricePoint } from './types.js';

/**
 * The next hours' import prices as a small bar chart (plain SVG: the dashboard does not load the
 * chart library): one bar per interval, below the line when the price is negative, spikes marked;
 * the feed-in price as a line where the source gives one.
 */
export function PriceChart({ points, currency, hours = 12, testId = 'price-chart' }: { points: readonly PricePoint[]; currency: string; hours?: number; testId?: string }) {
  if (!points.length) return <p className="muted small">No price forecast yet.</p>;
  const from = Date.parse(points[0]!.start);
  const to = from + hours * 3_600_000;
  const shown = points.filter((p) => Date.parse(p.start) < to);
  const values = shown.flatMap((p) => [p.importPerKwh, p.feedInPerKwh ?? 0]);
  const hi = Math.max(0.01, ...values);
  const lo = Math.min(0, ...values);
  const W = 600;
  const H = 120;
  const y = (v: number) => ((hi - v) / (hi - lo)) * H;
  const x = (t: number) => ((t - from) / (to - from)) * W;
  const feed = shown.filter((p) => p.feedInPerKwh !== null);
  const ticks = Array.from({ length: Math.floor(hours / 3) + 1 }, (_, i) => from + i * 3 * 3_600_000);
  return (
    <figure className="price-chart" data-testid={testId}>
      <svg viewBox={`0 -4 ${W} ${H + 22}`} role="img" aria-label={forecastSummary(shown, currency)} preserveAspectRatio="none">
        {shown.map((p) => {
          const s = Date.parse(p.start);
          const v = p.importPerKwh;
          return (
            <rect key={p.start} x={x(s)} width={Math.max(1, x(Date.parse(p.end)) - x(s) - 0.5)} y={Math.min(y(v), y(0))} height={Math.max(1, Math.abs(y(v) - y(0)))} className={p.spike ? 'bar spike' : v < 0 ? 'bar negative' : 'bar'}>
              <title>{`${formatClockTime(s)}: ${formatPerKwh(v, currency)}${p.spike ? ' (spike)' : ''}`}</title>
            </rect>
          );
        })}
        <line x1={0} x2={W} y1={y(0)} y2={y(0)} className="zero" />
        {feed.length > 1 && <polyline className="feed-in" fill="none" points={feed.map((p) => `${x(Date.parse(p.start))},${y(p.feedInPerKwh!)}`).join(' ')} />}
        {ticks.map((t) => (
          <text key={t} x={Math.min(W - 30, x(t))} y={H + 16} className="tick">
            {formatClockTime(t)}
          </text>
        ))}
      </svg>
      <figcaption className="small muted">
        Import price per interval for the next {hours} hours{feed.length > 1 ? '; the line is the feed-in price' : ''}. Highest bar {formatPerKwh(hi, currency)}.
      </figcaption>
    </figure>
  );
}
