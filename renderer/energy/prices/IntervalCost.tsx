import { useEffect, useState } from 'react';
import { api, messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { formatKwh, formatMoney } from '../../kit/format.js';
import { formatClockTime } from '../DemoClock.js';
import { formatPerKwh } from './price-words.js';
import type { IntervalBill } from './types.js';

/**
 * Today's cost by price interval (GET /api/cost/intervals): what each interval's energy cost or earned
 * as bars (cost below the line), the totals, and the bill's lines one click away.
 */
export function IntervalCost() {
  const [bill, setBill] = useState<IntervalBill | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      api
        .get<IntervalBill>('/api/cost/intervals')
        .then((b) => live && (setBill(b), setError(null)))
        .catch((err) => live && setError(messageOf(err)));
    void load();
    const t = setInterval(() => void load(), 60_000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, []);
  if (error) return <Banner kind="error">{error}</Banner>;
  if (!bill) return <p className="muted">Loading…</p>;
  if (!bill.source || !bill.currency) return <p className="muted" data-testid="interval-cost">Set a live price source (Amber or Octopus) in Settings to see today priced interval by interval.</p>;
  const c = bill.currency;
  const lines = bill.intervals;
  const importCost = lines.reduce((a, l) => a + l.importCost, 0);
  const feedIn = lines.reduce((a, l) => a + l.feedIn, 0);
  const W = 600;
  const H = 100;
  const hi = Math.max(0.001, ...lines.map((l) => l.net));
  const lo = Math.min(0, ...lines.map((l) => l.net));
  const y = (v: number) => ((hi - v) / (hi - lo)) * H;
  const step = W / Math.max(lines.length, 1);
  return (
    <div data-testid="interval-cost">
      <p>
        <span data-testid="interval-totals">
          Import {formatMoney(importCost, c)}, feed-in {formatMoney(feedIn, c)} over {lines.length} intervals today
        </span>
        {bill.fallbackKwh > 0 && <span data-testid="interval-fallback"> ({formatKwh(bill.fallbackKwh, 2)} had no interval price and was priced at the tariff’s fixed rates)</span>}.
      </p>
      {lines.length > 0 && (
        <svg viewBox={`0 0 ${W} ${H}`} className="interval-bars" role="img" aria-label={`Cost or credit of each interval today: import ${formatMoney(importCost, c)}, feed-in ${formatMoney(feedIn, c)}.`} preserveAspectRatio="none">
          {lines.map((l, i) => (
            <rect key={l.start} x={i * step} width={Math.max(1, step - 0.5)} y={Math.min(y(l.net), y(0))} height={Math.max(0.5, Math.abs(y(l.net) - y(0)))} className={l.net < 0 ? 'bar cost' : 'bar credit'}>
              <title>{`${formatClockTime(Date.parse(l.start))}: ${l.net < 0 ? `cost ${formatMoney(-l.net, c)}` : `earned ${formatMoney(l.net, c)}`}`}</title>
            </rect>
          ))}
          <line x1={0} x2={W} y1={y(0)} y2={y(0)} className="zero" />
        </svg>
      )}
      <details>
        <summary>Every interval</summary>
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Every interval of today's bill">
          <table className="small" data-testid="interval-table">
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">Import price</th>
                <th scope="col">Bought</th>
                <th scope="col">Cost</th>
                <th scope="col">Feed-in price</th>
                <th scope="col">Sent</th>
                <th scope="col">Earned</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.start} className={l.spike ? 'spike' : undefined}>
                  <td>
                    {formatClockTime(Date.parse(l.start))}
                    {l.spike ? ' (spike)' : ''}
                  </td>
                  <td>{formatPerKwh(l.importPerKwh, c)}</td>
                  <td>{formatKwh(l.importKwh, 3)}</td>
                  <td>{formatMoney(l.importCost, c)}</td>
                  <td>{formatPerKwh(l.feedInPerKwh, c)}</td>
                  <td>{formatKwh(l.exportKwh, 3)}</td>
                  <td>{formatMoney(l.feedIn, c)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
