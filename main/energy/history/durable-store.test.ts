import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/sqlite.js';
import { historyMigrations, REBUILD_MINUTES_SQL } from './durable-schema.js';
import { DurableStore } from './durable-store.js';
import { makeSample, T0 } from './fixtures.js';
import { SAMPLE_FIELDS } from './sample.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
/** A fresh folder for one test's database, removed after it. */
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-durable-'));
  dirs.push(dir);
  return dir;
}

describe('bulk inserts and the per-minute rollup', () => {
  it('leaves the rollup equal to one rebuilt from the stored samples, mixed with single inserts and repeats', () => {
    const dir = tempDir();
    const store = new DurableStore(path.join(dir, 'history.db'));
    try {
      // Polls one by one (each adds itself to its minute), then an import over the same minutes with repeats and gaps.
      for (let t = T0 + 30_000; t < T0 + 5 * 60_000; t += 7_000) store.insert(makeSample(t));
      const bulk = [];
      for (let t = T0; t < T0 + 9 * 60_000; t += 3_000) bulk.push(makeSample(t));
      bulk.push(makeSample(T0 + 30_000)); // already stored: skipped, not counted twice
      const inserted = store.insertMany(bulk);
      expect(inserted).toBe(store.count() - 39);
      const rollup = () => store.db.prepare('SELECT * FROM minutes ORDER BY m').all() as Array<Record<string, number | null>>;
      const kept = rollup();
      store.db.exec('DELETE FROM minutes');
      store.db.prepare(REBUILD_MINUTES_SQL).run({ lo: 0, hi: Math.floor((T0 + 10 * 60_000) / 60_000) });
      const rebuilt = rollup();
      expect(kept.map((r) => [r.m, r.n])).toEqual(rebuilt.map((r) => [r.m, r.n]));
      kept.forEach((row, i) => {
        for (const [k, v] of Object.entries(rebuilt[i]!)) {
          if (typeof v === 'number' && k.endsWith('_s')) expect(Math.abs((row[k] as number) - v), `${k} of minute ${row.m}`).toBeLessThan(1e-6);
          else expect(row[k], `${k} of minute ${row.m}`).toBe(v);
        }
      });
      // A poll after the import still adds itself to its minute.
      store.insert(makeSample(T0 + 9 * 60_000 + 1000));
      expect(store.db.prepare('SELECT n FROM minutes WHERE m = ?').pluck().get(Math.floor((T0 + 9 * 60_000) / 60_000))).toBe(1);
    } finally {
      store.close();
    }
  });
});

describe('the stored row count (from the per-minute rollup, not a scan of the table)', () => {
  it('equals count(*) through polls across pages, an import ending mid-page, polls after it, an import into the past and a prune', () => {
    const dir = tempDir();
    const store = new DurableStore(path.join(dir, 'history.db'));
    const scanned = () => store.db.prepare('SELECT count(*) FROM samples').pluck().get() as number;
    const MIN = 60_000;
    try {
      expect(store.count()).toBe(0);
      // Polls every 5 s over 25 minutes: three 10-minute pages, the last one still open.
      for (let t = T0; t < T0 + 25 * MIN; t += 5000) store.insert(makeSample(t));
      expect(store.count()).toBe(scanned());
      // A poll into a new page, then an import that runs 7 minutes into it (the page is folded again).
      store.insert(makeSample(T0 + 30 * MIN + 500));
      store.insertMany(Array.from({ length: 7 * 60 }, (_, i) => makeSample(T0 + 30 * MIN + i * 1000)));
      expect(store.count()).toBe(scanned());
      // Polls after it, in the same page and then into the next (sealing it).
      for (let t = T0 + 37 * MIN; t < T0 + 42 * MIN; t += 2000) store.insert(makeSample(t));
      expect(store.count()).toBe(scanned());
      // An import into sealed pages of the past, over rows already there, and a late single poll.
      store.insertMany(Array.from({ length: 600 }, (_, i) => makeSample(T0 + 5 * MIN + i * 1000)));
      store.insert(makeSample(T0 + 12 * MIN + 500));
      expect(store.count()).toBe(scanned());
      // A prune in the middle of a page.
      expect(store.prune(T0 + 13 * MIN + 30_000)).toBeGreaterThan(0);
      expect(store.count()).toBe(scanned());
      expect(scanned()).toBeGreaterThan(500);
    } finally {
      store.close();
    }
  });
});

describe('a database from before migration 4 (minutes kept by an insert trigger)', () => {
  it('opens with its rollup as it was, and a poll after adds itself to its minute once', () => {
    const dir = tempDir();
    const file = path.join(dir, 'history.db');
    const old = openDatabase(file, historyMigrations.slice(0, 3));
    const insert = old.prepare(`INSERT INTO samples (t, ${SAMPLE_FIELDS.join(', ')}) VALUES (?, ${SAMPLE_FIELDS.map(() => '?').join(', ')})`);
    for (let t = T0; t < T0 + 3 * 60_000; t += 2000) insert.run(t, ...SAMPLE_FIELDS.map((f) => makeSample(t)[f]));
    const before = old.prepare('SELECT * FROM minutes ORDER BY m').all();
    old.close();
    const store = new DurableStore(file);
    try {
      expect(store.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").pluck().get()).toBe(0);
      expect(store.db.prepare('SELECT * FROM minutes ORDER BY m').all()).toEqual(before);
      store.insert(makeSample(T0 + 2 * 60_000 + 1000));
      expect(store.db.prepare('SELECT n FROM minutes WHERE m = ?').pluck().get((T0 + 2 * 60_000) / 60_000)).toBe(31);
    } finally {
      store.close();
    }
  });
});

/**
 * Another connection (the poller's, on another thread) holding the write lock of `file` for `ms`:
 * resolves once it holds it, with a promise of its release.
 */
async function holdWriteLock(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const w = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const db = new (require(workerData.sqlite))(workerData.file);
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO samples (t) VALUES (1)').run();
    parentPort.postMessage('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
    db.exec('COMMIT');
    db.close();`,
    { eval: true, workerData: { file, ms, sqlite } },
  );
  await new Promise((resolve, reject) => w.once('message', resolve).once('error', reject));
  return { released: new Promise((resolve) => w.once('exit', () => resolve())) };
}

describe('bulk inserts beside another writer', () => {
  it('wait for the write lock a poll holds instead of failing (the import once failed half way with "database is locked")', async () => {
    const dir = tempDir();
    const store = new DurableStore(path.join(dir, 'history.db'));
    try {
      store.insert(makeSample(T0));
      const lock = await holdWriteLock(store.file, 150);
      // Synchronous, as in the import worker: SQLite's busy handler waits out the other writer.
      expect(store.insertMany([makeSample(T0 + 1000), makeSample(T0 + 2000)])).toBe(2);
      await lock.released;
      // The other connection's row and ours (its raw INSERT keeps no rollup, so the table is counted).
      expect(store.db.prepare('SELECT count(*) FROM samples').pluck().get()).toBe(4);
    } finally {
      store.close();
    }
  });
});
