import type { Counter, Histogram, Registry } from 'prom-client';
import type { EnergyFeature, EnergyFeatureModule, FeatureContext, FeatureFactory, FeatureSettings } from '../feature.js';
import { settingsSection, withDefaults } from '../settings-section.js';
import { metricsSeeds, metricsSettings } from '../../integrations/metrics/settings.js';
import type { Snapshot } from '../snapshot-schema.js';
import { httpMetrics, instrumentHttp, registerMetricsRoute, type HttpMetrics } from '../../integrations/metrics/http-metrics.js';
import { lazyMetrics, type PromClient } from '../../integrations/metrics/lazy-metrics.js';
import { addProcessMetrics } from '../../integrations/metrics/process-metrics.js';

export interface EnergyMetricsOptions {
  snapshot: () => Snapshot;
  /** Live event-stream (SSE) clients now. */
  eventClients: () => number;
}

const P = 'hlb_energy';
/** Joules in a kilowatt-hour: Prometheus wants base units (the gateway counts kWh). */
const JOULES_PER_KWH = 3_600_000;

/** A reading in the display unit the settings chose, in degrees Celsius (Prometheus' base unit). */
export function toCelsius(v: number | null | undefined, unit: 'celsius' | 'fahrenheit'): number | null {
  if (typeof v !== 'number') return null;
  return unit === 'fahrenheit' ? Math.round(((v - 32) * 5 * 1000) / 9) / 1000 : v;
}
const ratio = (percent: number | null | undefined) => (typeof percent === 'number' ? percent / 100 : null);
const joules = (kwh: number | null | undefined) => (typeof kwh === 'number' ? kwh * JOULES_PER_KWH : null);
/** Poll duration buckets, seconds: 5 ms to 10 s (a failed poll may wait out the reply timeout). */
export const POLL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface EnergyMetrics {
  registry: Registry;
  http: HttpMetrics;
  polls: Counter<'outcome'>;
  pollSeconds: Histogram<'outcome'>;
}

/**
 * The energy bridge's `GET /metrics` (prom-client, a Registry of its own, not the global one): the
 * live readings and lifetime counters read from the snapshot at scrape time, polls and their
 * durations (by outcome), HTTP requests and their durations, history size, event-stream clients,
 * and the process's own series (process-metrics.ts). Labels carry no secrets
 * and no host names. prom-client loads only once metrics are on (lazy-metrics.ts); the polls and
 * requests are counted from then.
 */
export function createEnergyMetricsFeature(ctx: FeatureContext<FeatureSettings<typeof metricsSection>>, opts: EnergyMetricsOptions): EnergyFeature {
  const enabled = () => ctx.settings().metrics.enabled;
  const metrics = lazyMetrics(enabled, (prom) => buildEnergyMetrics(prom, opts));
  return {
    name: 'metrics',
    async start() {
      // On at start: built before the first poll, so every poll is counted.
      if (enabled()) await metrics.ready();
    },
    onPoll(next, _at, poll) {
      const outcome = next.connected ? 'ok' : 'failed';
      metrics.record(({ polls, pollSeconds }) => {
        polls.inc({ outcome });
        if (poll) pollSeconds.observe({ outcome }, poll.durationMs / 1000);
      });
    },
    routes(app) {
      instrumentHttp(app, metrics);
      registerMetricsRoute(app, metrics, enabled, 'Metrics → Enabled');
    },
  };
}

function buildEnergyMetrics(prom: PromClient, opts: EnergyMetricsOptions): EnergyMetrics {
  const registry = new prom.Registry();
  const gauge = (name: string, help: string, read: (s: Snapshot) => number | null | undefined) =>
    new prom.Gauge({
      name: `${P}_${name}`,
      help,
      registers: [registry],
      collect() {
        const v = read(opts.snapshot());
        // No reading (old firmware, not polled yet): the series is left out rather than reported as 0.
        this.reset();
        if (typeof v === 'number' && Number.isFinite(v)) this.set(v);
      },
    });
  gauge('gateway_connected', 'Whether the gateway answered the last poll (1) or not (0).', (s) => (s.connected ? 1 : 0));
  gauge('battery_soc_ratio', 'Battery state of charge, 0 to 1.', (s) => ratio(s.battery.soc));
  gauge('battery_soh_ratio', 'Battery state of health, 0 to 1.', (s) => ratio(s.battery.soh));
  gauge('solar_power_watts', 'Solar power, W.', (s) => s.power.solar);
  gauge('home_power_watts', 'Home consumption, W.', (s) => s.power.home);
  gauge('grid_power_watts', 'Grid power, W (positive: importing).', (s) => s.power.grid);
  gauge('battery_power_watts', 'Battery power, W (positive: charging).', (s) => s.power.battery);
  gauge('home_energy_today_joules', 'Home consumption since local midnight, J (a gauge: it starts again at 0 each day).', (s) => joules(s.energy.consumedToday));
  gauge('outdoor_temperature_celsius', 'Outdoor temperature, °C whatever unit the pages show (weather, when on).', (s) => toCelsius(s.weather?.outdoorTemp, s.units.temperature));
  gauge('alerts_active', 'Alert rules firing now.', (s) => s.alerts.length);
  gauge('history_samples', 'Samples kept in the history database.', (s) => s.history?.count);
  // The gateway's own lifetime counters, only ever rising: counters in joules (read from the
  // gateway in kWh at scrape time, so each collect sets the counter to the gateway's total).
  new prom.Counter({ name: `${P}_lifetime_energy_joules_total`, help: "The gateway's lifetime energy counters, J.", labelNames: ['counter'], registers: [registry], collect() {
    this.reset();
    const l = opts.snapshot().energy.lifetime;
    for (const [k, v] of Object.entries({ pv: l.pv, consumed: l.consumed, grid_import: l.gridImport, grid_export: l.gridExport, battery_charge: l.batteryCharge, battery_discharge: l.batteryDischarge })) {
      const j = joules(v);
      if (j !== null && j >= 0) this.inc({ counter: k }, j);
    }
  } });
  // Live prices (Amber, Octopus), per kWh in the currency named by the label; absent with the fixed rates.
  const priceGauge = (name: string, help: string, read: (p: NonNullable<Snapshot['prices']>) => number | null | undefined) =>
    new prom.Gauge({ name: `${P}_${name}`, help, labelNames: ['currency'], registers: [registry], collect() {
      this.reset();
      const p = opts.snapshot().prices;
      const v = p ? read(p) : null;
      if (p && typeof v === 'number' && Number.isFinite(v)) this.set({ currency: p.currency }, v);
    } });
  priceGauge('import_price', 'Live import price now, currency per kWh (below zero: paid to use power).', (p) => p.current?.importPerKwh);
  priceGauge('feed_in_price', 'Live feed-in price now, currency per kWh (below zero: exporting costs money).', (p) => p.current?.feedInPerKwh);
  gauge('price_spike', 'Whether the live price interval now is a spike (1) or not (0).', (s) => (s.prices?.current ? (s.prices.current.spike ? 1 : 0) : null));
  gauge('prices_stale', 'Whether the live prices are stale (1: no interval covers now or the source has not answered for too long).', (s) => (s.prices ? (s.prices.stale ? 1 : 0) : null));
  new prom.Gauge({ name: `${P}_event_stream_clients`, help: 'Live event-stream (dashboard) connections.', registers: [registry], collect() {
    this.set(opts.eventClients());
  } });
  const polls = new prom.Counter({ name: `${P}_polls_total`, help: 'Gateway polls since metrics were switched on, by outcome.', labelNames: ['outcome'], registers: [registry] });
  polls.inc({ outcome: 'ok' }, 0);
  polls.inc({ outcome: 'failed' }, 0);
  // A Modbus poll on a home LAN takes ~5–500 ms; a failed one can last up to the reply timeout (seconds).
  const pollSeconds = new prom.Histogram({
    name: `${P}_poll_duration_seconds`,
    help: 'Time from the start of a gateway poll (a connect included) to its reading or its failure, by outcome.',
    labelNames: ['outcome'],
    buckets: POLL_BUCKETS,
    registers: [registry],
  });
  pollSeconds.zero({ outcome: 'ok' });
  pollSeconds.zero({ outcome: 'failed' });
  addProcessMetrics(prom, registry);
  return { registry, http: httpMetrics(prom, registry, P), polls, pollSeconds };
}

/** The metrics feature as the energy bridge's feature list takes it. */
export const metricsFeature: FeatureFactory<typeof metricsSection> = (ctx) => createEnergyMetricsFeature(ctx, { snapshot: required(ctx.snapshot, 'snapshot'), eventClients: ctx.eventClients ?? (() => 0) });

function required<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`the metrics feature needs the service's ${what}`);
  return v;
}

/** The energy bridge's `metrics` settings section. */
export const metricsSection = settingsSection({ key: 'metrics', schema: withDefaults(metricsSettings), seed: ({ env }) => metricsSeeds(env) });

/** Metrics as the energy bridge's feature list takes it: its settings section and the running feature. */
export const metricsModule: EnergyFeatureModule<typeof metricsSection> = { name: 'metrics', settings: [metricsSection], create: metricsFeature };
