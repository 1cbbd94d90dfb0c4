import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { flooredWidthSeconds, roundedFloor } from './downsample.js';
import { expectSameBuckets, makeSample, openTestHistory, referenceBuckets, storeSamples, T0, type TestHistory } from '../testing/history/fixtures.js';
import type { HistorySample } from './sample.js';

/** docs/energy-history-api.md: a history answer holds at most 20,000 rows. */
const MOST_ROWS = 20_000;

const MIN = 60_000;

describe('keyset paging and the floor over 100,000 samples', () => {
  let th: TestHistory;
  const N = 100_000;
  const first = T0 + 1000;
  const last = T0 + N * 1000;

  beforeAll(async () => {
    th = await openTestHistory();
    // The oldest 80,000 stored as an import would, the newest 20,000 (the memory window) polled.
    const polled = last - 20_000 * 1000;
    storeSamples(th.history, Array.from({ length: (polled - first) / 1000 + 1 }, (_, i) => makeSample(first + i * 1000)));
    for (let t = polled + 1000; t <= last; t += 1000) th.appendAt(t);
  }, 120_000);
  afterAll(() => th.close());

  it('walks backwards with until = oldest t - 1 and returns every sample exactly once', async () => {
    const seen: number[] = [];
    let url = '/api/history';
    for (let page = 0; page < 10; page++) {
      const res = await th.get(url);
      expect(res.status).toBe(200);
      const rows = res.body as HistorySample[];
      expect(rows.length).toBeLessThanOrEqual(MOST_ROWS);
      if (rows.length === 0) break;
      // Oldest first, strictly (one expect for the page, not one a row: 100,000 expects took seconds).
      expect(rows.filter((r, i) => i > 0 && r.t <= rows[i - 1]!.t)).toEqual([]);
      seen.push(...rows.map((r) => r.t));
      url = `/api/history?until=${rows[0]!.t - 1}`;
    }
    expect(seen).toHaveLength(N);
    expect(new Set(seen).size).toBe(N);
    expect(Math.min(...seen)).toBe(first);
    expect(Math.max(...seen)).toBe(last);
    // A sample read back from the durable copy equals what was appended.
    expect((await th.get(`/api/history?until=${first}`)).body).toEqual([makeSample(first)]);
  });

  it('pages newest-first too, with limit and order=desc', async () => {
    const seen = new Set<number>();
    let until = last;
    for (;;) {
      const rows = (await th.get(`/api/history?order=desc&limit=7000&until=${until}`)).body as HistorySample[];
      if (!rows.length) break;
      expect(rows[0]!.t).toBeGreaterThan(rows.at(-1)!.t);
      rows.forEach((r) => seen.add(r.t));
      until = rows.at(-1)!.t - 1;
    }
    expect(seen.size).toBe(N);
  });

  it('floors the bucket width so a downsampled response never exceeds 20,000 rows', async () => {
    const res = await th.get('/api/history?every=1');
    const rows = res.body as Array<{ t: number; n: number }>;
    const width = Number(res.headers['x-history-bucket-seconds']);
    // 100,000 s over 19,999 rows needs at least 6 s buckets; rounded up to 10 s (the cached blocks).
    expect(width).toBe(10);
    expect(rows.length).toBeLessThanOrEqual(MOST_ROWS);
    expect(rows.reduce((a, r) => a + r.n, 0)).toBe(N);
    expect(rows.filter((r) => r.t % (width * 1000) !== 0)).toEqual([]);
    // every above the floor is kept as asked.
    const hourly = await th.get('/api/history?every=3600');
    expect(hourly.headers['x-history-bucket-seconds']).toBe('3600');
    expect(hourly.body).toHaveLength(Math.floor(last / 3_600_000) - Math.floor(first / 3_600_000) + 1);
  });

  it('keeps the bound for any span and alignment', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 20_000; i++) {
      const lo = Math.floor(rnd() * 4e12);
      const hi = lo + Math.floor(rnd() ** 3 * 400 * 86_400_000);
      const w = flooredWidthSeconds(1 + Math.floor(rnd() * 30), lo, hi) * 1000;
      expect(Math.floor(hi / w) - Math.floor(lo / w) + 1).toBeLessThanOrEqual(MOST_ROWS);
    }
  });

  it('rounds a floor above every up to 1, 2, 5 s, tens of seconds up to a minute, then whole minutes', () => {
    expect([1, 2, 3, 5, 6, 10, 11, 31, 59, 60, 61, 121].map(roundedFloor)).toEqual([1, 2, 5, 5, 10, 10, 20, 40, 60, 60, 120, 180]);
    const week = 7 * 86_400_000;
    expect(flooredWidthSeconds(1, T0, T0 + week - 1000)).toBe(40);
    expect(flooredWidthSeconds(30, T0, T0 + week - 1000)).toBe(40);
    // every at or above the floor is kept as asked, even when no rollup answers it whole.
    expect(flooredWidthSeconds(45, T0, T0 + week - 1000)).toBe(45);
    expect(flooredWidthSeconds(1, T0, T0 + 3_600_000)).toBe(1);
  });
});

describe('downsampling with every', () => {
  let th: TestHistory | undefined;
  afterEach(async () => {
    await th?.close();
    th = undefined;
  });

  it('puts samples on bucket edges into the right buckets', async () => {
    th = await openTestHistory();
    const base = T0 + 10 * MIN;
    const times = [base - 1, base, base + 1, base + MIN - 1, base + MIN, base + 2 * MIN + 30_000, base + 3 * MIN - 1];
    const samples = times.map((t) => th!.appendAt(t));
    const rows = (await th.get('/api/history?every=60')).body;
    expect(rows.map((r: { t: number; n: number }) => [r.t - base, r.n])).toEqual([
      [-MIN, 1],
      [0, 3],
      [MIN, 1],
      [2 * MIN, 2],
    ]);
    const bucket = rows[1];
    const inBucket = samples.slice(1, 4);
    const grids = inBucket.map((s) => s.grid).filter((v): v is number => v !== null);
    expect(bucket.gridMin).toBe(Math.min(...grids));
    expect(bucket.gridMax).toBe(Math.max(...grids));
    expect(bucket.grid).toBeCloseTo(grids.reduce((a, b) => a + b, 0) / grids.length, 4);
    expectSameBuckets(rows, referenceBuckets(samples, MIN));
  });

  it('is exact for windows reaching past the memory window, across rollup minutes and raw edge minutes', async () => {
    // A 50-sample memory window: most of the series exists only in the durable copy.
    th = await openTestHistory({ memoryCapacity: 50 });
    const samples: HistorySample[] = [];
    for (let t = T0 + 3_000; t <= T0 + 40 * MIN; t += 7_000) samples.push(th.appendAt(t));
    const memFirst = th.history.inMemory().firstT!;
    expect(memFirst % MIN).not.toBe(0); // the boundary cuts through a bucket
    const since = T0 + 4 * MIN + 1234;
    const until = T0 + 37 * MIN + 999;
    const window = samples.filter((s) => s.t >= since && s.t <= until);
    for (const every of [60, 120, 45, 300, 10, 30, 50, 70]) {
      const res = await th.get(`/api/history?every=${every}&since=${since}&until=${until}`);
      expect(res.status).toBe(200);
      expectSameBuckets(res.body, referenceBuckets(window, every * 1000));
    }
    const all = (await th.get('/api/history?every=60')).body;
    expectSameBuckets(all, referenceBuckets(samples, MIN));
    const desc = (await th.get(`/api/history?every=60&order=desc&limit=3&until=${until}`)).body;
    expect(desc.map((r: { t: number }) => r.t)).toEqual(referenceBuckets(samples.filter((s) => s.t <= until), MIN).slice(-3).reverse().map((r) => r.t));
  });

  it('stays exact after a prune cuts through a minute', async () => {
    th = await openTestHistory({ retentionMs: 30 * MIN, memoryCapacity: 10 });
    const samples: HistorySample[] = [];
    for (let t = T0 + 1000; t <= T0 + 50 * MIN + 20_500; t += 5_000) samples.push(th.appendAt(t));
    th.history.prune();
    const cutoff = th.clock.now() - 30 * MIN;
    expect(cutoff % MIN).not.toBe(0);
    const rows = (await th.get('/api/history?every=120')).body;
    expectSameBuckets(rows, referenceBuckets(samples.filter((s) => s.t >= cutoff), 2 * MIN));
    expectSameBuckets((await th.get('/api/history?every=30')).body, referenceBuckets(samples.filter((s) => s.t >= cutoff), 30_000));
  });
});

describe('downsampling while polls arrive and prunes run', () => {
  it('matches the reference after each poll and prune (cached rollup minutes stay current)', async () => {
    const th = await openTestHistory({ retentionMs: 20 * MIN, memoryCapacity: 30 });
    try {
      const samples: HistorySample[] = [];
      let t = T0 + 500;
      for (let round = 0; round < 12; round++) {
        for (let i = 0; i < 37; i++, t += 3_100) samples.push(th.appendAt(t));
        if (round % 4 === 3) th.history.prune();
        const cutoff = th.clock.now() - 20 * MIN;
        const retained = samples.filter((s) => s.t >= cutoff);
        expectSameBuckets((await th.get('/api/history?every=60')).body, referenceBuckets(retained, MIN));
        expectSameBuckets((await th.get('/api/history?every=180')).body, referenceBuckets(retained, 3 * MIN));
        // Multiples of 10 s read the cached 10 s blocks: a prune drops only the blocks it cut.
        expectSameBuckets((await th.get('/api/history?every=20')).body, referenceBuckets(retained, 20_000));
        expectSameBuckets((await th.get('/api/history?every=40')).body, referenceBuckets(retained, 40_000));
      }
    } finally {
      await th.close();
    }
  });
});

describe('query composition', () => {
  let th: TestHistory;
  beforeAll(async () => {
    th = await openTestHistory({ memoryCapacity: 100 });
    for (let i = 1; i <= 300; i++) th.appendAt(T0 + i * 10_000);
  });
  afterAll(() => th.close());

  it('applies since/until inclusively, in epoch ms or ISO, then limit keeps the most recent', async () => {
    const since = T0 + 50_000;
    const until = T0 + 2_000_000;
    const iso = (await th.get(`/api/history?since=${new Date(since).toISOString()}&until=${new Date(until).toISOString()}`)).body;
    const ms = (await th.get(`/api/history?since=${since}&until=${until}`)).body;
    expect(iso).toEqual(ms);
    expect(ms[0].t).toBe(since);
    expect(ms.at(-1).t).toBe(until);
    expect(ms).toHaveLength(196);
    const limited = (await th.get(`/api/history?since=${since}&until=${until}&limit=5&order=desc`)).body;
    expect(limited.map((r: { t: number }) => r.t)).toEqual([0, 1, 2, 3, 4].map((k) => until - k * 10_000));
    const pretty = await th.get('/api/history?limit=1&pretty');
    expect(pretty.text).toContain('\n  {\n');
  });
});
