import { describe, expect, it } from 'vitest';
import { lazyMetrics } from './lazy-metrics.js';

describe('metrics built on first need', () => {
  it('records nothing while off, then counts everything from the moment metrics are on', async () => {
    let on = false;
    let builds = 0;
    const metrics = lazyMetrics(
      () => on,
      (prom) => {
        builds++;
        const registry = new prom.Registry();
        return { registry, hits: new prom.Counter({ name: 'hits_total', help: 'Hits.', registers: [registry] }) };
      },
    );
    metrics.record(({ hits }) => hits.inc());
    await new Promise((r) => setTimeout(r, 20));
    expect(builds).toBe(0);

    on = true;
    // Recorded while prom-client loads: queued, then counted once it has.
    metrics.record(({ hits }) => hits.inc());
    metrics.record(({ hits }) => hits.inc());
    const { registry } = await metrics.ready();
    metrics.record(({ hits }) => hits.inc());
    expect(await registry.metrics()).toContain('hits_total 3');
    expect(builds).toBe(1);
    // Built once: switched off again, the counters it holds keep counting.
    on = false;
    metrics.record(({ hits }) => hits.inc());
    expect(await (await metrics.ready()).registry.metrics()).toContain('hits_total 4');
    expect(builds).toBe(1);
  });
});
