import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DurableStore } from './durable-store.js';
import { makeSample, openTestHistory, T0, type TestHistory } from '../testing/history/fixtures.js';
import { MemoryWindow } from './memory-window.js';
import { queryHistory } from './query.js';
import type { DownsampledRow, HistorySample } from './sample.js';

// spec/energy-bridge.md (history): `GET /api/history` answers the most recent samples (at most
// 20,000) between `since` and `until` inclusive, oldest first unless `order=desc`; with `every` the
// samples are averaged into buckets of that many seconds, aligned to the epoch. Here the query
// runs in-process (history.query), over a memory window of 10 samples and the durable copy behind it.
const S = (i: number) => T0 + i * 1000;
const ts = (rows: Array<{ t: number }>) => rows.map((r) => (r.t - T0) / 1000);
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, k) => a + k);

describe('history query rules (memory window of 10, durable copy behind it)', () => {
  let th: TestHistory;
  beforeEach(async () => {
    th = await openTestHistory({ memoryCapacity: 10, retentionMs: 3_600_000 });
    for (let i = 1; i <= 30; i++) th.appendAt(S(i));
  });
  afterEach(() => th.close());
  const raw = (q: Parameters<TestHistory['history']['query']>[0]) => {
    const r = th.history.query(q);
    expect(r.kind).toBe('samples');
    return r.rows as HistorySample[];
  };
  const buckets = (q: Parameters<TestHistory['history']['query']>[0]) => {
    const r = th.history.query(q);
    if (r.kind !== 'downsampled') throw new Error('expected buckets');
    return r;
  };

  it('without arguments: every retained sample, oldest first, across memory and the durable copy', () => {
    const rows = raw({});
    expect(ts(rows)).toEqual(range(1, 30));
    expect(rows[0]).toEqual(makeSample(S(1)));
    expect(rows[29]).toEqual(makeSample(S(30)));
  });

  it('limit keeps the most recent samples, still oldest first; order=desc newest first', () => {
    expect(ts(raw({ limit: 5 }))).toEqual(range(26, 30));
    expect(ts(raw({ limit: 10 }))).toEqual(range(21, 30));
    expect(ts(raw({ limit: 15 }))).toEqual(range(16, 30));
    expect(ts(raw({ limit: 15, order: 'desc' }))).toEqual(range(16, 30).reverse());
    expect(ts(raw({ order: 'asc', limit: 3 }))).toEqual([28, 29, 30]);
  });

  it('since and until are inclusive, inside memory, inside the durable copy and across both', () => {
    expect(ts(raw({ since: S(24), until: S(27) }))).toEqual(range(24, 27));
    expect(ts(raw({ since: S(3), until: S(8) }))).toEqual(range(3, 8));
    expect(ts(raw({ since: S(18), until: S(25) }))).toEqual(range(18, 25));
    expect(ts(raw({ since: S(18), until: S(25), limit: 4 }))).toEqual(range(22, 25));
    expect(ts(raw({ since: S(18), until: S(25), limit: 4, order: 'desc' }))).toEqual([25, 24, 23, 22]);
    expect(ts(raw({ until: S(20) }))).toEqual(range(1, 20));
    expect(ts(raw({ until: S(21) }))).toEqual(range(1, 21));
    expect(ts(raw({ since: S(21) }))).toEqual(range(21, 30));
    expect(ts(raw({ since: S(20) }))).toEqual(range(20, 30));
    expect(raw({ since: S(31) })).toEqual([]);
    expect(raw({ until: S(0) })).toEqual([]);
  });

  it('samples older than the retention are never answered, whatever since asks for', () => {
    th.retention.ms = 15_000; // now is S(30): the cutoff is S(15)
    expect(ts(raw({}))).toEqual(range(15, 30));
    expect(ts(raw({ since: S(1) }))).toEqual(range(15, 30));
    expect(ts(raw({ since: S(17) }))).toEqual(range(17, 30));
    expect(ts(buckets({ every: 10 }).rows)).toEqual([10, 20, 30]);
    expect(buckets({ every: 10 }).rows.map((r) => r.n)).toEqual([5, 10, 1]);
  });

  it('every: buckets aligned to multiples of the width, each with its sample count', () => {
    const r = buckets({ every: 10 });
    expect(r.widthSeconds).toBe(10);
    expect(ts(r.rows)).toEqual([0, 10, 20, 30]);
    expect(r.rows.map((x: DownsampledRow) => x.n)).toEqual([9, 10, 10, 1]);
    const mean = (a: number, b: number) => {
      const v = range(a, b).map((i) => makeSample(S(i)).soc!);
      return v.reduce((x, y) => x + y, 0) / v.length;
    };
    expect(r.rows[1]!.soc).toBeCloseTo(mean(10, 19), 9);
  });

  it('every with limit keeps the most recent buckets; order=desc newest first', () => {
    expect(ts(buckets({ every: 10, limit: 2 }).rows)).toEqual([20, 30]);
    expect(ts(buckets({ every: 10, limit: 4 }).rows)).toEqual([0, 10, 20, 30]);
    expect(ts(buckets({ every: 10, limit: 2, order: 'desc' }).rows)).toEqual([30, 20]);
    expect(ts(buckets({ every: 10, order: 'desc' }).rows)).toEqual([30, 20, 10, 0]);
  });

  it('every within since/until covers only that span', () => {
    const r = buckets({ every: 10, since: S(12), until: S(24) });
    expect(ts(r.rows)).toEqual([10, 20]);
    expect(r.rows.map((x) => x.n)).toEqual([8, 5]);
    const inMemory = buckets({ every: 5, since: S(26), until: S(29) });
    expect(ts(inMemory.rows)).toEqual([25]);
    expect(inMemory.rows.map((x) => x.n)).toEqual([4]);
  });

  it('every over a span without samples answers no buckets, with the width asked for', () => {
    expect(buckets({ every: 60, since: S(31) })).toEqual({ kind: 'downsampled', rows: [], widthSeconds: 60 });
    expect(buckets({ every: 60, until: S(0) })).toEqual({ kind: 'downsampled', rows: [], widthSeconds: 60 });
    expect(buckets({ every: 60, since: S(40), until: S(50) })).toEqual({ kind: 'downsampled', rows: [], widthSeconds: 60 });
  });
});

describe('history query on an empty history', () => {
  it('answers nothing, raw or downsampled', async () => {
    const th = await openTestHistory({ memoryCapacity: 10 });
    try {
      expect(th.history.query({})).toEqual({ kind: 'samples', rows: [] });
      expect(th.history.query({ order: 'desc', limit: 3 })).toEqual({ kind: 'samples', rows: [] });
      expect(th.history.query({ every: 30 })).toEqual({ kind: 'downsampled', rows: [], widthSeconds: 30 });
    } finally {
      th.close();
    }
  });
});

describe('history query over its two sources directly', () => {
  // The memory window is normally the newest part of the durable copy; these cases take the two
  // apart (a durable write failing on a full disk keeps samples in memory only; a window not yet
  // loaded is empty) and check the bucket width still follows the samples that exist.
  let dir: string;
  let durable: DurableStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-query-'));
    durable = new DurableStore(path.join(dir, 'history.db'));
  });
  afterEach(() => {
    durable.db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('samples only in memory: raw rows from memory, bucket width as asked', () => {
    const memory = new MemoryWindow(10);
    for (let i = 1; i <= 5; i++) memory.push(makeSample(S(i)));
    const src = { memory, durable, cutoff: 0 };
    expect(ts((queryHistory(src, {}) as { rows: HistorySample[] }).rows)).toEqual([1, 2, 3, 4, 5]);
    expect(queryHistory(src, { every: 10 }).kind).toBe('downsampled');
    expect((queryHistory(src, { every: 10 }) as { widthSeconds: number }).widthSeconds).toBe(10);
  });

  it('samples only in the durable copy: raw rows and buckets from it, bucket width as asked', () => {
    const memory = new MemoryWindow(10);
    for (let i = 1; i <= 5; i++) durable.insert(makeSample(S(i)));
    const src = { memory, durable, cutoff: 0 };
    expect(ts((queryHistory(src, {}) as { rows: HistorySample[] }).rows)).toEqual([1, 2, 3, 4, 5]);
    const r = queryHistory(src, { every: 10 });
    expect(r).toMatchObject({ kind: 'downsampled', widthSeconds: 10 });
    expect((r as { rows: DownsampledRow[] }).rows.map((x) => [(x.t - T0) / 1000, x.n])).toEqual([[0, 5]]);
  });

  it('a span of one instant (since = until = a sample) is one bucket of one sample', () => {
    const memory = new MemoryWindow(10);
    for (let i = 1; i <= 30; i++) durable.insert(makeSample(S(i)));
    for (let i = 21; i <= 30; i++) memory.push(makeSample(S(i)));
    const src = { memory, durable, cutoff: 0 };
    const r = queryHistory(src, { every: 10, since: S(15), until: S(15) }) as { rows: DownsampledRow[]; widthSeconds: number };
    expect(r.rows.map((x) => [(x.t - T0) / 1000, x.n])).toEqual([[10, 1]]);
    expect(ts((queryHistory(src, { since: S(25), until: S(25) }) as { rows: HistorySample[] }).rows)).toEqual([25]);
  });
});

describe('history query when the two sources part', () => {
  // A durable write failing (full disk) leaves the newest samples in the memory window only; a raw
  // read still answers them, once each, with the durable copy supplying only what memory lacks.
  let dir: string;
  let durable: DurableStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-query-'));
    durable = new DurableStore(path.join(dir, 'history.db'));
  });
  afterEach(() => {
    durable.db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rawTs = (src: Parameters<typeof queryHistory>[0], q: Parameters<typeof queryHistory>[1]) => {
    const r = queryHistory(src, q);
    if (r.kind !== 'samples') throw new Error('expected samples');
    return ts(r.rows);
  };

  it('memory ahead of the durable copy: raw rows from both without repeats; buckets from the durable copy', () => {
    const memory = new MemoryWindow(10);
    for (let i = 1; i <= 30; i++) durable.insert(makeSample(S(i)));
    for (let i = 26; i <= 35; i++) memory.push(makeSample(S(i))); // 31..35 never reached the disk
    const src = { memory, durable, cutoff: 0 };
    expect(rawTs(src, {})).toEqual(range(1, 35));
    expect(rawTs(src, { limit: 12 })).toEqual(range(24, 35));
    expect(rawTs(src, { limit: 10 })).toEqual(range(26, 35));
    expect(rawTs(src, { until: S(27), limit: 5 })).toEqual(range(23, 27));
    expect(rawTs(src, { until: S(25) })).toEqual(range(1, 25));
    expect(rawTs(src, { since: S(26) })).toEqual(range(26, 35));
    expect(rawTs(src, { since: S(25), order: 'desc', limit: 3 })).toEqual([35, 34, 33]);
    const r = queryHistory(src, { every: 10 });
    expect(r).toMatchObject({ kind: 'downsampled', widthSeconds: 10 });
    expect((r as { rows: DownsampledRow[] }).rows.map((x) => [(x.t - T0) / 1000, x.n])).toEqual([
      [0, 9],
      [10, 10],
      [20, 10],
      [30, 1],
    ]);
  });

  it('every: each power field carries the smallest and largest sample of its bucket', () => {
    const memory = new MemoryWindow(10);
    for (let i = 1; i <= 30; i++) durable.insert(makeSample(S(i)));
    for (let i = 21; i <= 30; i++) memory.push(makeSample(S(i)));
    const r = queryHistory({ memory, durable, cutoff: 0 }, { every: 10, since: S(15), until: S(24) }) as { rows: DownsampledRow[] };
    const solar = (a: number, b: number) => range(a, b).flatMap((i) => makeSample(S(i)).solar ?? []);
    expect(r.rows.map((x) => [(x.t - T0) / 1000, x.solarMin, x.solarMax, x.n])).toEqual([
      [10, Math.min(...solar(15, 19)), Math.max(...solar(15, 19)), 5],
      [20, Math.min(...solar(20, 24)), Math.max(...solar(20, 24)), 5],
    ]);
  });

  it('bucket widths over 7 days as the API documents: every=1 or 30 gives 40 s (15,120 rows), every=60 gives 60 s (10,080)', () => {
    // docs/energy-history-api.md, "Floor": the width is at least ceil((span + 1 ms) / 19,999 s),
    // rounded up to 1, 2, 5 s, a multiple of 10 s up to a minute, then whole minutes.
    const WEEK_S = 7 * 86_400;
    durable.insertMany(Array.from({ length: WEEK_S / 40 }, (_, k) => makeSample(T0 + k * 40_000)));
    const src = { memory: new MemoryWindow(10), durable, cutoff: 0 };
    for (const every of [1, 30]) {
      const r = queryHistory(src, { every }) as { rows: DownsampledRow[]; widthSeconds: number };
      expect(r.widthSeconds, `every=${every}`).toBe(40);
      expect(r.rows).toHaveLength(15_120);
      expect(r.rows.every((x) => x.n === 1)).toBe(true);
      expect(r.rows.at(-1)!.t).toBe(T0 + (WEEK_S - 40) * 1000);
    }
    const minute = queryHistory(src, { every: 60 }) as { rows: DownsampledRow[]; widthSeconds: number };
    expect(minute.widthSeconds).toBe(60);
    expect(minute.rows).toHaveLength(10_080);
    expect(minute.rows.slice(0, 3).map((x) => x.n)).toEqual([2, 1, 2]);
    // Above the floor the width is the one asked for; a narrower window has a lower floor.
    expect((queryHistory(src, { every: 3600 }) as { rows: DownsampledRow[]; widthSeconds: number }).rows).toHaveLength(168);
    expect(queryHistory(src, { every: 1, since: T0, until: T0 + 86_400_000 - 1 })).toMatchObject({ widthSeconds: 5 });
    // limit keeps the most recent buckets, also when it is above the count.
    const last = queryHistory(src, { every: 3600, limit: 2 }) as { rows: DownsampledRow[] };
    expect(last.rows.map((x) => (x.t - T0) / 3_600_000)).toEqual([166, 167]);
    expect((queryHistory(src, { every: 86_400, limit: 20_000 }) as { rows: DownsampledRow[] }).rows.map((x) => x.n)).toEqual(Array(7).fill(2160));
  });
});
