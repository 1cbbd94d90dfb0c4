import { afterEach, describe, expect, it } from 'vitest';
import { expectSameBuckets, openTestHistory, referenceBuckets, T0, type TestHistory } from '../testing/history/fixtures.js';
import type { HistorySample } from './sample.js';

// spec/energy-bridge.md (history): with `every`, samples are averaged into buckets of that many
// seconds aligned to the epoch, each with the min and max of its power fields and its sample count.
// `GET /api/history` answers from the reader worker, from the minute and hour tiers where the width
// is whole minutes or hours and from raw samples at the edges. Here its answers are held against
// the raw samples (a reference written independently), and byte for byte against the in-process
// query, at widths on and off the tiers, over cut ranges, after a retention prune that cuts a
// minute, and with the newest bucket still filling.
const MIN = 60_000;
const WIDTHS = [1, 2, 5, 10, 20, 30, 40, 50, 60, 90, 120, 300];

describe('downsampled reads: the fast path answers what the raw samples say', () => {
  let th: TestHistory | undefined;
  afterEach(async () => {
    await th?.close();
    th = undefined;
  });

  /** The response over HTTP, checked against the raw samples and the in-process JSON.stringify path. */
  const check = async (samples: HistorySample[], query: string, widthMs: number, q: Parameters<TestHistory['history']['query']>[0]) => {
    const res = await th!.get(`/api/history?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers['x-history-bucket-seconds']).toBe(String(widthMs / 1000));
    expectSameBuckets(res.body, referenceBuckets(samples, widthMs));
    const inProcess = th!.history.query(q);
    expect(res.text, query).toBe(JSON.stringify(inProcess.rows));
  };

  it('at every width, over the whole series and over ranges cut inside blocks and minutes', { timeout: 90_000 }, async () => {
    th = await openTestHistory({ memoryCapacity: 100 });
    // 32 minutes of 1 s polls with gaps (a missed poll every 97 s, a 2-minute outage) and nulls.
    const samples: HistorySample[] = [];
    for (let t = T0 + 250; t < T0 + 32 * MIN; t += 1000) {
      if (Math.floor(t / 1000) % 97 === 0 || (t > T0 + 20 * MIN && t < T0 + 22 * MIN)) continue;
      samples.push(th.appendAt(t));
    }
    const since = T0 + 3 * MIN + 4_321;
    const until = T0 + 27 * MIN + 15_500;
    const cut = samples.filter((s) => s.t >= since && s.t <= until);
    for (const every of WIDTHS) {
      await check(samples, `every=${every}`, every * 1000, { every });
      await check(cut, `every=${every}&since=${since}&until=${until}`, every * 1000, { every, since, until });
    }
    // Newest first and limited: the most recent buckets, in reverse.
    const desc = await th.get(`/api/history?every=20&order=desc&limit=7`);
    expect(desc.text).toBe(JSON.stringify(th.history.query({ every: 20, order: 'desc', limit: 7 }).rows));
    expect(desc.body.map((r: { t: number }) => r.t)).toEqual(referenceBuckets(samples, 20_000).slice(-7).reverse().map((r) => r.t));
  });

  it('the newest bucket, still filling, is never answered from a stale cache', { timeout: 60_000 }, async () => {
    th = await openTestHistory({ memoryCapacity: 50 });
    const samples: HistorySample[] = [];
    let t = T0 + 400;
    // The series ends 3.4 s into a 10 s block and 43.4 s into a minute.
    for (; t <= T0 + 12 * MIN + 43_400; t += 1000) samples.push(th.appendAt(t));
    for (let round = 0; round < 4; round++) {
      for (const every of [10, 20, 30, 60, 120]) await check(samples, `every=${every}`, every * 1000, { every });
      // More polls land in the same block, the same minute, then the next ones.
      for (let i = 0; i < 3 + round * 9; i++, t += 1000) samples.push(th.appendAt(t));
    }
  });

  it('after a retention prune that cuts a 10 s block and a minute, only what is retained counts', { timeout: 60_000 }, async () => {
    th = await openTestHistory({ memoryCapacity: 30, retentionMs: 25 * MIN });
    const samples: HistorySample[] = [];
    for (let t = T0 + 700; t <= T0 + 40 * MIN + 5_300; t += 1000) samples.push(th.appendAt(t));
    // Reads never answer what is older than the retention, pruned or not yet.
    const cutoff = th.clock.now() - 25 * MIN;
    expect(cutoff % 10_000).not.toBe(0);
    const retained = samples.filter((s) => s.t >= cutoff);
    for (const every of [10, 40, 60]) await check(retained, `every=${every}`, every * 1000, { every });
    expect(th.history.prune()).toBeGreaterThan(0);
    for (const every of WIDTHS) await check(retained, `every=${every}`, every * 1000, { every });
  });
});
