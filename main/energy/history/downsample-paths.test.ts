import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { openDatabase } from '../../core/sqlite.js';
import { finishBucket } from './downsample.js';
import { historyMigrations } from './durable-schema.js';
import { DurableStore } from './durable-store.js';
import { expectSameBuckets, makeSample, openTestHistory, referenceBuckets, T0, type TestHistory } from './fixtures.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

// spec/energy-bridge.md (history): with `every`, samples are averaged into buckets of that many
// seconds aligned to the epoch, each with the min and max of its power fields and its sample count.
// `GET /api/history` answers from the reader worker: cached rollup minutes and 10 s blocks folded
// into typed columns, written as JSON bytes by hand. Here its answers are held against the raw
// samples (a reference written independently), and byte for byte against the in-process query
// written by JSON.stringify, at widths on and off the rollups, over cut ranges, after a retention
// prune that cuts a block and a minute, and with the newest bucket still filling.
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
    // Reads never answer what is older than the retention, pruned or not yet. Warm the caches
    // first, so the prune has cached blocks and minutes to invalidate.
    const cutoff = th.clock.now() - 25 * MIN;
    expect(cutoff % 10_000).not.toBe(0);
    const retained = samples.filter((s) => s.t >= cutoff);
    for (const every of [10, 40, 60]) await check(retained, `every=${every}`, every * 1000, { every });
    expect(th.history.prune()).toBeGreaterThan(0);
    // The pruned pages of the 10 s rollup are gone from disk too; the page the cutoff cuts is kept
    // (rebuilt from what is left of it).
    const db = new Database(path.join(th.dataDir, 'energy', 'history.db'), { readonly: true });
    try {
      const stored = db.prepare('SELECT p FROM block_pages ORDER BY p').pluck().all() as number[];
      expect(stored[0]).toBe(Math.floor(cutoff / (10 * MIN)));
    } finally {
      db.close();
    }
    for (const every of WIDTHS) await check(retained, `every=${every}`, every * 1000, { every });
  });
});

describe('read caches at idle', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('hold no 10 s blocks; the rollup minutes are let go once no read has used them for the idle time', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-idle-'));
    dirs.push(dir);
    const file = path.join(dir, 'history.db');
    const writer = new DurableStore(file);
    const samples: HistorySample[] = [];
    for (let t = T0; t < T0 + 30 * MIN; t += 1000) samples.push(makeSample(t));
    writer.insertMany(samples);
    const clock = createManualClock(T0 + 31 * MIN);
    const reader = new DurableStore(file, { readonly: true, cacheIdle: { clock, ms: 120_000 } });
    try {
      const last = samples.at(-1)!.t;
      const read = (w: number) => {
        const b = reader.buckets(T0, last, w);
        return Array.from({ length: b.length }, (_, j) => b.bucket(j));
      };
      // Widths of 10 s multiples read the stored pages and keep nothing.
      const blocks40 = read(40_000);
      expect(reader.cacheSize()).toEqual({ minutes: 0 });
      const minutes = read(2 * MIN);
      expect(reader.cacheSize().minutes).toBeGreaterThanOrEqual(29);
      // A read within the idle time keeps them (the timer starts again).
      clock.advance(100_000);
      read(3 * MIN);
      clock.advance(100_000);
      expect(reader.cacheSize().minutes).toBeGreaterThan(0);
      clock.advance(20_001);
      expect(reader.cacheSize()).toEqual({ minutes: 0 });
      // Read again from SQLite: the same buckets.
      expect(read(40_000)).toEqual(blocks40);
      expect(read(2 * MIN)).toEqual(minutes);
    } finally {
      reader.close();
      writer.close();
    }
  });
});

describe('the 10 s rollup on disk (block_pages)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const tmpFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-pages-'));
    dirs.push(dir);
    return path.join(dir, 'history.db');
  };
  const rowsOf = (store: DurableStore, lo: number, hi: number, w: number) => {
    const b = store.buckets(lo, hi, w);
    return Array.from({ length: b.length }, (_, j) => finishBucket(b.bucket(j)));
  };
  const pages = (store: DurableStore) => store.db.prepare('SELECT p FROM block_pages ORDER BY p').pluck().all() as number[];

  it('stays exact when samples land in sealed pages: a bulk insert of older samples and a late single one', { timeout: 60_000 }, () => {
    const file = tmpFile();
    const writer = new DurableStore(file);
    const reader = new DurableStore(file, { readonly: true });
    try {
      const all: HistorySample[] = [];
      for (let t = T0 + 300; t < T0 + 55 * MIN; t += 1000) all.push(makeSample(t));
      const late = all.filter((s) => Math.floor(s.t / 1000) % 7 === 0);
      const first = all.filter((s) => Math.floor(s.t / 1000) % 7 !== 0);
      for (const s of first) writer.insert(s);
      // Every page before the newest sample's is stored: pages 0..4 of this series (10 minutes each).
      expect(pages(writer)).toEqual([0, 1, 2, 3, 4].map((k) => Math.floor(T0 / (10 * MIN)) + k));
      const last = first.at(-1)!.t;
      for (const w of [10_000, 40_000]) expectSameBuckets(rowsOf(reader, T0, last, w), referenceBuckets(first, w));
      // The missing samples arrive late, in bulk, into pages already sealed; then one more alone,
      // into the first page.
      writer.insertMany(late.slice(1));
      expect(writer.insert(late[0]!)).toBe(true);
      for (const w of [10_000, 20_000, 30_000, 40_000, 50_000]) expectSameBuckets(rowsOf(reader, T0, last, w), referenceBuckets(all, w));
    } finally {
      reader.close();
      writer.close();
    }
  });

  it('is written by bulk inserts that append in batches cutting through pages, every sealed page stored', { timeout: 60_000 }, () => {
    const file = tmpFile();
    const writer = new DurableStore(file);
    try {
      const all: HistorySample[] = [];
      for (let t = T0 + 1_700; t < T0 + 47 * MIN; t += 2000) if (Math.floor(t / 1000) % 13 !== 0) all.push(makeSample(t));
      for (let i = 0; i < all.length; i += 250) writer.insertMany(all.slice(i, i + 250));
      const page0 = Math.floor(T0 / (10 * MIN));
      expect(pages(writer)).toEqual([0, 1, 2, 3].map((k) => page0 + k));
      for (const w of [10_000, 30_000, 40_000]) expectSameBuckets(rowsOf(writer, T0, all.at(-1)!.t, w), referenceBuckets(all, w));
      // A repeat of rows already stored changes nothing.
      expect(writer.insertMany(all.slice(100, 900))).toBe(0);
      expectSameBuckets(rowsOf(writer, T0, all.at(-1)!.t, 20_000), referenceBuckets(all, 20_000));
    } finally {
      writer.close();
    }
  });

  it('is built for the samples already stored when a database from before it is opened', () => {
    const file = tmpFile();
    const old = openDatabase(file, historyMigrations.slice(0, 2));
    const samples: HistorySample[] = [];
    for (let t = T0 + 900; t < T0 + 35 * MIN; t += 3000) samples.push(makeSample(t));
    const insert = old.prepare(`INSERT INTO samples (t, ${SAMPLE_FIELDS.join(', ')}) VALUES (?, ${SAMPLE_FIELDS.map(() => '?').join(', ')})`);
    for (const s of samples) insert.run(s.t, ...SAMPLE_FIELDS.map((f) => s[f]));
    old.close();
    const store = new DurableStore(file);
    try {
      expect(pages(store)).toHaveLength(3);
      expectSameBuckets(rowsOf(store, T0, samples.at(-1)!.t, 30_000), referenceBuckets(samples, 30_000));
    } finally {
      store.close();
    }
  });
});
