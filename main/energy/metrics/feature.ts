import type { Counter, Histogram, Registry } from 'prom-client';
import type { EnergyFeature, EnergyFeatureModule, FeatureContext, FeatureFactory, FeatureSettings, SnapshotGauge, SnapshotView } from '../feature.js';
import { settingsSection, withDefaults } from '../settings-section.js';
import { metricsSeeds, metricsSettings } from '../../integrations/metrics/settings.js';
import { joules } from '../live/published.js';
import { httpMetrics, instrumentHttp, registerMetricsRoute, type HttpMetrics } from '../../integrations/metrics/http-metrics.js';
import { lazyMetrics, type PromClient } from '../../integrations/metrics/lazy-metrics.js';
import { addProcessMetrics } from '../../integrations/metrics/process-metrics.js';

export interface EnergyMetricsOptions {
  snapshot: () => SnapshotView;
  /** The gauges read from the snapshot at scrape time: the core's and every feature's (features.ts). */
  gauges: readonly SnapshotGauge[];
  /** Live event-stream (SSE) clients now. */
  eventClients: () => number;
}

const P = 'hlb_energy';
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
  const gauge = (g: SnapshotGauge) =>
    new prom.Gauge({
      name: `${P}_${g.name}`,
      help: g.help,
      labelNames: [...(g.labels?.names ?? [])],
      registers: [registry],
      collect() {
        const s = opts.snapshot();
        const v = g.value(s);
        // No reading (old firmware, not polled yet): the series is left out rather than reported as 0.
        this.reset();
        if (typeof v === 'number' && Number.isFinite(v)) {
          if (g.labels) this.set(g.labels.of(s), v);
          else this.set(v);
        }
      },
    });
  for (const g of opts.gauges) gauge(g);
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
export const metricsFeature: FeatureFactory<typeof metricsSection> = (ctx) =>
  createEnergyMetricsFeature(ctx, { snapshot: required(ctx.snapshot, 'snapshot'), gauges: required(ctx.gauges, 'gauges'), eventClients: ctx.eventClients ?? (() => 0) });

function required<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`the metrics feature needs the service's ${what}`);
  return v;
}

/** The energy bridge's `metrics` settings section. */
export const metricsSection = settingsSection({ key: 'metrics', schema: withDefaults(metricsSettings), seed: ({ env }) => metricsSeeds(env) });

/** Metrics as the energy bridge's feature list takes it: its settings section and the running feature. */
export const metricsModule: EnergyFeatureModule<typeof metricsSection> = { name: 'metrics', settings: [metricsSection], create: metricsFeature };
