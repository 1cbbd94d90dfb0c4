import type { Registry } from 'prom-client';
import type { PromClient } from './lazy-metrics.js';

/**
 * prom-client's default gauges named against the Prometheus conventions (a gauge ending in `_total`,
 * which `promtool check metrics` flags). The same figures stay, by type, in `nodejs_active_handles`,
 * `nodejs_active_requests` and `nodejs_active_resources`.
 */
const MISNAMED = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

const shared = new WeakMap<PromClient, Registry>();

/**
 * Adds the process's standard series (prom-client's collectDefaultMetrics: process_* for CPU,
 * resident memory, open descriptors and start time; nodejs_* for heap, external memory, event-loop
 * lag, GC durations) to a service's registry. Both services run in one process: the series are
 * made once per process (one event-loop monitor, one GC observer) and each service's /metrics shows
 * the same ones, read at scrape time.
 */
export function addProcessMetrics(prom: PromClient, registry: Registry): void {
  let proc = shared.get(prom);
  if (!proc) {
    proc = new prom.Registry();
    prom.collectDefaultMetrics({ register: proc });
    for (const name of MISNAMED) proc.removeSingleMetric(name);
    shared.set(prom, proc);
  }
  for (const { name } of proc.getMetricsAsArray()) registry.registerMetric(proc.getSingleMetric(name)!);
}
