import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { formatDateTime, formatKwh, formatMoney } from '../../kit/format.js';
import type { TariffConfig } from '../../../main/energy/tariff/windows.js';
import { hasBands, SERIES, toChartPoints, type HistoryRow, type SeriesKey } from './chart-data.js';
import { PowerChart, SocChart } from './Charts.js';
import { CustomRange } from './CustomRange.js';
import { DailyBars } from './DailyBars.js';
import { TrendsPrices } from '../prices/TrendsPrices.js';
import { DemoClockBadge } from '../DemoClock.js';
import { serverNow, useServerClock } from '../../kit/server-clock.js';
import { historyUrl, queryFor, RANGES, type HistoryQuery, type RangeKey } from './ranges.js';
import { sampleSpacingSeconds, windowTotals } from './window-totals.js';

interface TariffSettings {
  tariff: TariffConfig;
  general: { timezone: string; currency: string };
  /** Where prices come from: `fixed` (the tariff's rates) or a live source (Amber, Octopus). */
  prices?: { source: string };
}

interface Stats {
  count: number;
  firstT: number | null;
  lastT: number | null;
}

/** Time series of power and state of charge over a chosen range, with export links. */
export function TrendsPage() {
  const [range, setRange] = useState<RangeKey>('1h');
  const [custom, setCustom] = useState(() => ({ from: serverNow() - 6 * 3_600_000, to: serverNow() }));
  const [query, setQuery] = useState<HistoryQuery>(() => queryFor('1h', serverNow(), custom));
  const [rows, setRows] = useState<HistoryRow[] | null>(null);
  const [stats, setStats] = useState<Stats | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [visible, setVisible] = useState<Set<SeriesKey>>(() => new Set(SERIES.map((s) => s.key)));

  const load = useCallback(async (q: HistoryQuery) => {
    try {
      const [data, st] = await Promise.all([api.get<HistoryRow[]>(historyUrl(q)), api.get<Stats>('/api/history/stats').catch(() => null)]);
      setRows(data);
      setStats(st);
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);

  useEffect(() => {
    void load(query);
  }, [load, query]);

  // Ranges are measured on the bridge's clock (the demo's runs faster): re-aim once it is known.
  const clock = useServerClock();
  // The tariff prices the window's energy; the settings are public reads (secrets stripped).
  const [pricing, setPricing] = useState<TariffSettings | null>(null);
  useEffect(() => {
    api.get<TariffSettings>('/api/settings').then(setPricing, () => setPricing(null));
  }, []);
  useEffect(() => {
    if (clock && range !== 'custom') setQuery(queryFor(range, serverNow(), custom));
  }, [clock]);

  // Relative ranges slide forward while the page is open.
  useEffect(() => {
    if (range === 'custom') return;
    const t = setInterval(() => setQuery(queryFor(range, serverNow(), custom)), range === '1h' ? 15_000 : 120_000);
    return () => clearInterval(t);
  }, [range, custom]);

  const pick = (key: RangeKey) => {
    setRange(key);
    if (key !== 'custom') setQuery(queryFor(key, serverNow(), custom));
  };
  const applyCustom = (from: number, to: number) => {
    setCustom({ from, to });
    setQuery(queryFor('custom', serverNow(), { from, to }));
  };

  const points = useMemo(() => (rows ? toChartPoints(rows) : []), [rows]);
  const spacing = rows ? sampleSpacingSeconds(rows, query.every) : query.every;
  const livePrices = pricing?.prices !== undefined && pricing.prices.source !== 'fixed';
  const totals = useMemo(
    // With live prices each interval had its own price, which the window's rows do not carry: the
    // fixed rates would give a wrong cost, so none is worked out here (today's bill by interval is below).
    () => (rows && rows.length ? windowTotals(rows, spacing, pricing && !livePrices ? { config: pricing.tariff, timeZone: pricing.general.timezone } : null) : null),
    [rows, spacing, pricing, livePrices],
  );
  const currency = pricing?.general.currency ?? 'AUD';
  // "All" starts at the oldest row the bridge answered, not at the epoch it was asked from.
  const domain: [number, number] = [range === 'all' && rows?.length ? rows[0]!.t : query.since, query.until];
  const toggle = (key: SeriesKey) =>
    setVisible((v) => {
      const next = new Set(v);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <>
      <h1>
        Trends <DemoClockBadge />
      </h1>
      <div className="range-picker" role="group" aria-label="Time range">
        {RANGES.map((r) => (
          <button key={r.key} type="button" aria-pressed={range === r.key} onClick={() => pick(r.key)}>
            {r.label}
          </button>
        ))}
      </div>
      {range === 'custom' && <CustomRange from={custom.from} to={custom.to} onApply={applyCustom} />}
      {error && <Banner kind="error">{error}</Banner>}
      <Card
        title="Power"
        id="power"
        actions={
          <span className="small muted" data-testid="trends-summary">
            {rows === null ? 'Loading…' : `${rows.length} points, one per ${spacing} s${hasBands(rows) ? ', shaded band = min to max' : ''}`}
          </span>
        }
      >
        <div className="series-toggles" role="group" aria-label="Series">
          {SERIES.map((s) => (
            <label key={s.key}>
              <input type="checkbox" checked={visible.has(s.key)} onChange={() => toggle(s.key)} /> <span className="swatch" aria-hidden="true" style={{ background: s.color }} />
              {s.label}
            </label>
          ))}
        </div>
        {rows !== null && rows.length === 0 ? (
          <p className="muted" data-testid="trends-empty">
            No history in this range yet. Samples are recorded on every poll.
          </p>
        ) : (
          <PowerChart points={points} visible={visible} domain={domain} />
        )}
        <p className="small muted">Grid is positive when importing; battery is positive when charging.</p>
      </Card>
      {totals && (
        <Card title="Energy in this window" id="window-totals">
          <dl className="totals" data-testid="window-totals">
            <div>
              <dt>Solar</dt>
              <dd data-testid="total-solar">{formatKwh(totals.solarKwh)}</dd>
            </div>
            <div>
              <dt>Home</dt>
              <dd data-testid="total-home">{formatKwh(totals.homeKwh)}</dd>
            </div>
            <div>
              <dt>Bought from the grid</dt>
              <dd data-testid="total-import">{formatKwh(totals.importKwh)}</dd>
            </div>
            <div>
              <dt>Sold to the grid</dt>
              <dd data-testid="total-export">{formatKwh(totals.exportKwh)}</dd>
            </div>
            <div>
              <dt>Battery charged / discharged</dt>
              <dd data-testid="total-battery">
                {formatKwh(totals.chargeKwh)} / {formatKwh(totals.dischargeKwh)}
              </dd>
            </div>
            <div>
              <dt>Grid cost</dt>
              <dd data-testid="total-cost">{totals.cost !== null ? formatMoney(totals.cost, currency) : livePrices ? 'priced by interval' : 'no tariff set'}</dd>
            </div>
          </dl>
          <p className="small muted">
            Over the {totals.hours.toFixed(1)} hours recorded in the chart's window, from the chart's own points.
            {livePrices
              ? " With live prices every interval has its own price, and past intervals' prices are not kept, so this window's cost is not worked out: today's cost by interval is below, and the dashboard shows today's total."
              : totals.cost === null
                ? ' Set your rates in Settings › Tariff to see the cost.'
                : ' Cost is what you bought at the rate in force minus what you sold at the feed-in rate; the daily supply charge and day-level credits are not included (a negative cost is a credit).'}
          </p>
        </Card>
      )}
      <TrendsPrices />
      <Card title="Battery state of charge" id="soc">
        {rows !== null && rows.length > 0 ? <SocChart points={points} domain={domain} /> : <p className="muted">No data.</p>}
      </Card>
      <Card title="Last 30 days" id="daily">
        <DailyBars />
        <p className="small"><a href="/savings" data-testid="savings-link">What solar and the battery saved, by month and year</a></p>
      </Card>
      <Card title="Export" id="export">
        <p className="small">
          {stats ? `${stats.count} samples held${stats.firstT ? `, ${formatDateTime(stats.firstT)} to ${formatDateTime(stats.lastT)}` : ''}.` : ''} The export holds the full retained series.
        </p>
        <div className="row">
          {/* The chart's own row interval (the samples' spacing when it is coarser than asked), so the two agree. */}
          <a className="button" href={`/api/history/export?format=csv&every=${spacing}`} download data-testid="csv-every">
            Download CSV (one row per {spacing} s)
          </a>
          <a className="button" href={`/api/history/export?format=json&every=${spacing}`} download>
            Download JSON
          </a>
          <a className="button" href="/api/history/export?format=csv" download data-testid="csv-all">
            CSV, every sample
          </a>
        </div>
        <p className="small">
          <a href="/api/control/audit/export" download data-testid="control-audit-export">
            Battery control's audit log
          </a>{' '}
          (every decision and write, control-audit.jsonl).
        </p>
      </Card>
    </>
  );
}
