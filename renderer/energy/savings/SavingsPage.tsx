import { useEffect, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, messageOf } from '../../api.js';
import { Link } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { formatKwh, formatMoney, formatPercent } from '../../kit/format.js';
import { paidInsteadOf, savedOrCost } from './money-words.js';
import type { SavingsPeriod } from '../../../main/energy/savings/report.js';

type By = 'day' | 'month' | 'year';
interface Report {
  from: string;
  to: string;
  by: By;
  timezone: string;
  periods: SavingsPeriod[];
  total: SavingsPeriod;
}

const axisTick = { fill: 'var(--muted)', fontSize: 12 };
const BARS = [
  { key: 'paid', label: 'Paid', color: 'var(--accent)' },
  { key: 'paidWithoutBattery', label: 'Without the battery', color: 'var(--grid)' },
  { key: 'paidWithoutSolar', label: 'Without solar or battery', color: 'var(--home)' },
] as const;
const VIEWS: Array<{ by: By; label: string }> = [
  { by: 'month', label: 'Months' },
  { by: 'year', label: 'Years' },
  { by: 'day', label: 'Last 30 days' },
];

/** What the household paid against the two counterfactuals, per month, year or day (GET /api/savings). */
export function SavingsPage() {
  const [by, setBy] = useState<By>('month');
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      api
        .get<Report>(`/api/savings?by=${by}`)
        .then((r) => live && (setReport(r), setError(null)))
        .catch((err) => live && setError(messageOf(err)));
    void load();
    const t = setInterval(() => void load(), 60_000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [by]);

  const currency = report?.total.currency ?? null;
  const money = (v: number | null) => (currency ? formatMoney(v, currency) : '—');
  return (
    <>
      <h1>Savings</h1>
      <p className="small muted">
        What you paid for electricity, against what the same days would have cost without the battery and without solar or battery, priced by your tariff at the time. <Link href="/trends">Back to Trends</Link>
      </p>
      <div className="row" role="group" aria-label="Period">
        {VIEWS.map((v) => (
          <button key={v.by} type="button" className={v.by === by ? 'primary' : undefined} aria-pressed={v.by === by} onClick={() => setBy(v.by)}>
            {v.label}
          </button>
        ))}
      </div>
      {error && <Banner kind="error">{error}</Banner>}
      {!report && !error && <p className="muted">Loading…</p>}
      {report && report.periods.length === 0 && <p className="muted" data-testid="savings-empty">No days recorded in this range yet. Each local day is added as it goes.</p>}
      {report && report.periods.length > 0 && (
        <>
          <Card title={`Saved ${report.from} to ${report.to}`} id="savings-total">
            {currency ? (
              <p data-testid="savings-total">
                The battery: <strong>{savedOrCost(report.total.savedByBattery, (v) => formatMoney(v, currency))}</strong>; solar and battery together: <strong>{savedOrCost(report.total.savedBySolarAndBattery, (v) => formatMoney(v, currency))}</strong>. {paidInsteadOf(report.total.paid, report.total.paidWithoutSolar, (v) => formatMoney(v, currency))}
              </p>
            ) : (
              <Banner kind="info" testId="savings-no-tariff">
                No tariff was set for these days, so only energy is shown. <Link href="/settings">Set a tariff in Settings</Link> to price the days from now on.
              </Banner>
            )}
            <p className="small">
              Self-sufficiency {formatPercent(report.total.selfSufficiencyPct)} (home load not imported) · self-consumption {formatPercent(report.total.selfConsumptionPct)} (solar used at home or stored).
            </p>
          </Card>
          {currency && (
            <Card title="Paid per period" id="savings-chart">
              <div className="chart-box" data-testid="savings-bars">
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={report.periods} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                    <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
                    <XAxis dataKey="period" tick={axisTick} stroke="var(--border)" minTickGap={12} />
                    <YAxis tick={axisTick} stroke="var(--border)" width={72} tickFormatter={(v: number) => formatMoney(v, currency)} />
                    <Tooltip formatter={(v) => formatMoney(Number(v), currency)} isAnimationActive={false} />
                    <Legend />
                    {BARS.map((b) => (
                      <Bar key={b.key} dataKey={b.key} name={b.label} fill={b.color} isAnimationActive={false} />
                    ))}
                  </BarChart>
                </ResponsiveContainer>
              </div>
            </Card>
          )}
          <Card title="The table behind it" id="savings-table">
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Savings table (scrolls sideways)">
              <table data-testid="savings-table">
                <thead>
                  <tr>
                    <th scope="col">{by === 'day' ? 'Day' : by === 'month' ? 'Month' : 'Year'}</th>
                    <th scope="col">Paid</th>
                    <th scope="col">Without battery</th>
                    <th scope="col">Without solar or battery</th>
                    <th scope="col">Saved by battery</th>
                    <th scope="col">Saved in all</th>
                    <th scope="col">Solar</th>
                    <th scope="col">Home</th>
                    <th scope="col">Imported</th>
                    <th scope="col">Self-sufficiency</th>
                    <th scope="col">Days</th>
                  </tr>
                </thead>
                <tbody>
                  {report.periods.map((p) => (
                    <tr key={p.period}>
                      <th scope="row">{p.period}</th>
                      <td>{money(p.paid)}</td>
                      <td>{money(p.paidWithoutBattery)}</td>
                      <td>{money(p.paidWithoutSolar)}</td>
                      <td>{money(p.savedByBattery)}</td>
                      <td>{money(p.savedBySolarAndBattery)}</td>
                      <td>{formatKwh(p.solarKwh, 1)}</td>
                      <td>{formatKwh(p.homeKwh, 1)}</td>
                      <td>{formatKwh(p.importKwh, 1)}</td>
                      <td>{formatPercent(p.selfSufficiencyPct)}</td>
                      <td>
                        {p.days}
                        {p.completeDays < p.days ? ` (${p.days - p.completeDays} partial)` : ''}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="small muted">
              Days are local days in {report.timezone}; today is still running and a day the bridge was off for part of is marked partial. The battery&apos;s own losses are in the measured figures, not in the counterfactuals.{' '}
              <a href={`/api/savings?by=${by}&from=${report.from}&to=${report.to}&format=csv`} download data-testid="savings-csv">
                This table as CSV
              </a>
            </p>
          </Card>
        </>
      )}
    </>
  );
}
