import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Counter, Histogram, Registry } from 'prom-client';
import { AppError } from '../../core/errors.js';
import type { LazyMetrics, PromClient } from './lazy-metrics.js';

const started = new WeakMap<FastifyRequest, bigint>();

export interface HttpMetrics {
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
}

/**
 * Request counts and durations of one HTTP server, labelled by method, route template (never the
 * raw URL: no ids, no query strings, a bounded set) and status.
 */
export function httpMetrics(prom: PromClient, registry: Registry, prefix: string): HttpMetrics {
  return {
    requests: new prom.Counter({ name: `${prefix}_http_requests_total`, help: 'HTTP requests answered, by method, route and status.', labelNames: ['method', 'route', 'status'], registers: [registry] }),
    duration: new prom.Histogram({
      name: `${prefix}_http_request_duration_seconds`,
      help: 'Time to answer an HTTP request (to the last header; streams are counted when they start).',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
  };
}

/** Counts and times every request `app` answers into the service's HTTP metrics (see lazy-metrics.ts). */
export function instrumentHttp(app: FastifyInstance, metrics: LazyMetrics<{ http: HttpMetrics }>): void {
  app.addHook('onRequest', async (req) => {
    started.set(req, process.hrtime.bigint());
  });
  app.addHook('onResponse', async (req, reply) => {
    const t = started.get(req);
    const seconds = t === undefined ? undefined : Number(process.hrtime.bigint() - t) / 1e9;
    const route = req.routeOptions.url ?? 'unmatched';
    const method = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(req.method) ? req.method : 'OTHER';
    const status = String(reply.statusCode);
    metrics.record(({ http }) => {
      http.requests.inc({ method, route, status });
      if (seconds !== undefined) http.duration.observe({ method, route }, seconds);
    });
  });
}

/**
 * `GET /metrics` in the Prometheus text format, while `enabled()`; otherwise 404 `metrics_off`
 * (saying which setting turns it on).
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: LazyMetrics<{ registry: Registry }>, enabled: () => boolean, setting: string): void {
  app.get('/metrics', async (_req, reply) => {
    if (!enabled()) throw new AppError(404, 'metrics_off', `Metrics are off: turn on "${setting}" in the settings (or start with METRICS_ENABLED=1).`);
    const { registry } = await metrics.ready();
    const body = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
