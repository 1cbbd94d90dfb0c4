import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Db } from '../../core/sqlite.js';
import type { ProgressRegistry } from '../progress.js';
import type { SyncParts } from '../features/feature.js';
import { httpMetrics, instrumentHttp, registerMetricsRoute, type HttpMetrics } from '../../integrations/metrics/http-metrics.js';
import { lazyMetrics, type PromClient } from '../../integrations/metrics/lazy-metrics.js';
import { addProcessMetrics } from '../../integrations/metrics/process-metrics.js';
import { AD_OUTCOMES, adOutcomeCounter } from './ad-outcomes.js';

export interface RecordingsMetricsDeps {
  db: Db;
  engine: Pick<SyncParts['engine'], 'current'>;
  progress: ProgressRegistry;
  settings: { get(): { metrics_enabled: boolean } };
}

const P = 'hlb_recordings';

/**
 * The recording sync's `GET /metrics` (prom-client, a Registry of its own): sync runs and their
 * download counts from the state file, whether a sync runs now, downloads in progress, HTTP
 * requests and durations, and the process's own series (process-metrics.ts). Labels carry no show names, paths, hosts or secrets. prom-client loads
 * only once `metrics_enabled` is on (lazy-metrics.ts); requests are counted from then.
 */
export function registerRecordingsMetrics(app: FastifyInstance, deps: RecordingsMetricsDeps): void {
  const enabled = () => deps.settings.get().metrics_enabled;
  const metrics = lazyMetrics(enabled, (prom) => buildRecordingsMetrics(prom, deps));
  if (enabled()) void metrics.ready().catch(() => undefined);
  instrumentHttp(app, metrics);
  registerMetricsRoute(app, metrics, enabled, 'metrics_enabled');
}

function buildRecordingsMetrics(prom: PromClient, deps: RecordingsMetricsDeps): { registry: Registry; http: HttpMetrics } {
  const registry = new prom.Registry();
  const byStatus = deps.db.prepare(`SELECT status, COUNT(*) AS n, COALESCE(SUM(json_extract(summary_json, '$.downloaded')), 0) AS downloaded, COALESCE(SUM(json_extract(summary_json, '$.failed')), 0) AS failed FROM sync_runs GROUP BY status`);
  const lastFinished = deps.db.prepare(`SELECT MAX(finished_at) AS t FROM sync_runs WHERE status != 'running'`);
  const read = () => byStatus.all() as Array<{ status: string; n: number; downloaded: number; failed: number }>;
  const STATUSES = ['running', 'ok', 'partial', 'error'];
  new prom.Gauge({ name: `${P}_sync_runs`, help: 'Sync runs in the sync history, by status (clearing the history lowers it).', labelNames: ['status'], registers: [registry], collect() {
    const rows = read();
    for (const s of STATUSES) this.set({ status: s }, rows.find((r) => r.status === s)?.n ?? 0);
  } });
  new prom.Gauge({ name: `${P}_sync_items`, help: 'Recordings downloaded or failed over the sync runs in the history.', labelNames: ['outcome'], registers: [registry], collect() {
    const rows = read();
    this.set({ outcome: 'downloaded' }, rows.reduce((a, r) => a + r.downloaded, 0));
    this.set({ outcome: 'failed' }, rows.reduce((a, r) => a + r.failed, 0));
  } });
  new prom.Gauge({ name: `${P}_last_sync_finished_timestamp_seconds`, help: 'When the last sync run finished (Unix time).', registers: [registry], collect() {
    this.reset();
    const t = (lastFinished.get() as { t: number | null }).t;
    if (t) this.set(t / 1000);
  } });
  new prom.Gauge({ name: `${P}_sync_running`, help: 'Whether a sync runs now (1) or not (0).', registers: [registry], collect() {
    this.set(deps.engine.current() ? 1 : 0);
  } });
  const adOutcomes = adOutcomeCounter(deps.db);
  new prom.Gauge({ name: `${P}_by_ad_outcome`, help: 'Recordings in the library by ad-removal outcome: marked, cut, no breaks found, or failed at detecting, marking or cutting.', labelNames: ['outcome'], registers: [registry], collect() {
    const counts = adOutcomes();
    for (const o of AD_OUTCOMES) this.set({ outcome: o }, counts[o]);
  } });
  new prom.Gauge({ name: `${P}_downloads_in_progress`, help: 'Recordings downloading, scanning, marking or cutting now.', registers: [registry], collect() {
    this.set(deps.progress.size());
  } });
  addProcessMetrics(prom, registry);
  return { registry, http: httpMetrics(prom, registry, P) };
}
