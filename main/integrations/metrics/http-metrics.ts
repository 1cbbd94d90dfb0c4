import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';
import { AppError } from '../../core/errors.js';

const started = new WeakMap<FastifyRequest, bigint>();

/**
 * Request counts and durations of one HTTP server, labelled by method, route template (never the
 * raw URL: no ids, no query strings, a bounded set) and status.
 */
export function instrumentHttp(app: FastifyInstance, registry: Registry, prefix: string): void {
  const requests = new Counter({ name: `${prefix}_http_requests_total`, help: 'HTTP requests answered, by method, route and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({
    name: `${prefix}_http_request_duration_seconds`,
    help: 'Time to answer an HTTP request (to the last header; streams are counted when they start).',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  app.addHook('onRequest', async (req) => {
    started.set(req, process.hrtime.bigint());
  });
  app.addHook('onResponse', async (req, reply) => {
    const t = started.get(req);
    const route = req.routeOptions.url ?? 'unmatched';
    const method = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(req.method) ? req.method : 'OTHER';
    requests.inc({ method, route, status: String(reply.statusCode) });
    if (t !== undefined) duration.observe({ method, route }, Number(process.hrtime.bigint() - t) / 1e9);
  });
}

/**
 * `GET /metrics` in the Prometheus text format, while `enabled()`; otherwise 404 `metrics_off`
 * (saying which setting turns it on).
 */
export function registerMetricsRoute(app: FastifyInstance, registry: Registry, enabled: () => boolean, setting: string): void {
  app.get('/metrics', async (_req, reply) => {
    if (!enabled()) throw new AppError(404, 'metrics_off', `Metrics are off: turn on "${setting}" in the settings (or start with METRICS_ENABLED=1).`);
    const body = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
