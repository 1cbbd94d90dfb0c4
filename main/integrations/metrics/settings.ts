import { z } from 'zod';

/** The energy bridge's `metrics` section (the recording sync has `metrics_enabled`). */
export const metricsSettings = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .meta({ applies: 'live', label: 'Prometheus metrics', description: 'Offer the readings and counters at /metrics for Prometheus or Grafana to collect. Anyone on your network can read them.' }),
  })
  .strict();

/** METRICS_ENABLED=1 (or true) turns /metrics on for both services. */
export function metricsSeeds(env: NodeJS.ProcessEnv): { enabled?: boolean } {
  const v = env.METRICS_ENABLED?.trim().toLowerCase();
  return v === '1' || v === 'true' || v === 'yes' ? { enabled: true } : {};
}
