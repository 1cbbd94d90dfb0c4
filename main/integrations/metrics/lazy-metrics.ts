import type * as Prom from 'prom-client';

export type PromClient = typeof Prom;

/** Observations queued at most while prom-client loads (a few requests or polls in practice). */
const MAX_QUEUED = 10_000;

/**
 * A service's metrics, built with prom-client the first time they are needed: at start when
 * metrics are on, otherwise on the first poll, request or scrape after they are switched on.
 * A default install (metrics off) never loads prom-client. Counting starts when metrics are on;
 * what happens while the library loads is queued and counted once it has.
 */
export interface LazyMetrics<T> {
  /** Runs `observe` on the metrics now, or as soon as they are built; nothing while metrics are off and unbuilt. */
  record(observe: (metrics: T) => void): void;
  /** The built metrics (loading prom-client first if needed). */
  ready(): Promise<T>;
}

export function lazyMetrics<T>(enabled: () => boolean, build: (prom: PromClient) => T): LazyMetrics<T> {
  let built: T | null = null;
  let loading: Promise<T> | null = null;
  const queued: Array<(metrics: T) => void> = [];
  const ready = (): Promise<T> =>
    (loading ??= import('prom-client').then(
      (mod) => {
        // Inside the ES module bundle a CommonJS package arrives as its default export only.
        const prom = ((mod as unknown as { default?: PromClient }).default ?? mod) as PromClient;
        const metrics = (built = build(prom));
        for (const observe of queued.splice(0)) observe(metrics);
        return metrics;
      },
      (err: unknown) => {
        loading = null;
        queued.length = 0;
        throw err;
      },
    ));
  return {
    record(observe) {
      if (built) return observe(built);
      if (!enabled()) return;
      if (queued.length < MAX_QUEUED) queued.push(observe);
      ready().catch(() => undefined);
    },
    ready,
  };
}
