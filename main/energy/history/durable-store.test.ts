import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DurableStore } from './durable-store.js';
import { holdWriteLock, makeSample, T0 } from '../testing/history/fixtures.js';
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

/** The tiers' rows as a reference builds them from the samples, in SQL written here. */
function referenceTier(store: DurableStore, unitMs: number): Array<Record<string, number | null>> {
  const cols = SAMPLE_FIELDS.map((f) => `total(${f}) AS ${f}_s, count(${f}) AS ${f}_c, min(${f}) AS ${f}_lo, max(${f}) AS ${f}_hi`).join(', ');
  return store.db.prepare(`SELECT t / ${unitMs} AS k, count(*) AS n, ${cols} FROM samples GROUP BY t / ${unitMs} ORDER BY k`).all() as Array<Record<string, number | null>>;
}

function expectSameTier(kept: Array<Record<string, number | null>>, want: Array<Record<string, number | null>>, what: string): void {
  expect(kept.map((r) => [r.k, r.n]), what).toEqual(want.map((r) => [r.k, r.n]));
  kept.forEach((row, i) => {
    for (const [k, v] of Object.entries(want[i]!)) {
      if (typeof v === 'number' && k.endsWith('_s')) expect(Math.abs((row[k] as number) - v), `${what} ${k} of ${row.k}`).toBeLessThan(1e-6);
      else expect(row[k], `${what} ${k} of ${row.k}`).toBe(v);
    }
  });
}

describe('the minute and hour tiers', () => {
  it('equal tiers rebuilt from the stored samples, after polls, an import over the same span with repeats, and polls after', () => {
    const dir = tempDir();
    const store = new DurableStore(path.join(dir, 'history.db'));
    try {
      // Polls one by one (each adds itself to its minute and hour), then an import over the same minutes with repeats and gaps.
      for (let t = T0 + 30_000; t < T0 + 5 * 60_000; t += 7_000) store.insert(makeSample(t));
      const bulk = [];
      for (let t = T0 + 3_000; t < T0 + 70 * 60_000; t += 3_000) bulk.push(makeSample(t));
      bulk.push(makeSample(T0 + 30_000)); // already stored: skipped, not counted twice
      const inserted = store.insertMany(bulk);
      expect(inserted).toBe(store.count() - 39);
      for (let t = T0 + 70 * 60_000 + 500; t < T0 + 75 * 60_000; t += 2_000) store.insert(makeSample(t));
      const tier = (name: string) => store.db.prepare(`SELECT * FROM ${name} ORDER BY k`).all() as Array<Record<string, number | null>>;
      expectSameTier(tier('minute'), referenceTier(store, 60_000), 'minute');
      expectSameTier(tier('hour'), referenceTier(store, 3_600_000), 'hour');
    } finally {
      store.close();
    }
  });

  it('outlive the raw samples: a prune keeps minutes to their own cutoff and hours for good', () => {
    const dir = tempDir();
    const store = new DurableStore(path.join(dir, 'history.db'));
    try {
      const HOUR = 3_600_000;
      store.insertMany(Array.from({ length: 5 * 60 }, (_, i) => makeSample(T0 + i * 60_000)));
      const before = referenceTier(store, HOUR);
      expect(store.prune({ raw: T0 + 4 * HOUR, minute: T0 + 2 * HOUR })).toBe(4 * 60);
      expect(store.db.prepare('SELECT min(k) * 60000 FROM minute').pluck().get()).toBe(T0 + 2 * HOUR);
      expectSameTier(store.db.prepare('SELECT * FROM hour ORDER BY k').all() as Array<Record<string, number | null>>, before, 'hour');
    } finally {
      store.close();
    }
  });
});

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

describe('the count of retained samples (stats)', () => {
  it('equals a count of the samples from the cutoff: mid-hour cutoffs, after a prune, after an import of older rows, with tiers still being built', () => {
    const store = new DurableStore(path.join(tempDir(), 'history.db'));
    try {
      const counted = (cutoff: number) => store.db.prepare('SELECT count(*) FROM samples WHERE t >= ?').pluck().get(cutoff) as number;
      const expectCounts = (what: string) => {
        for (const cutoff of [0, T0, T0 + 1_234_567, T0 + 3_600_000, T0 + 3_600_001, T0 + 9_000_000, T0 + 30 * 3_600_000]) expect(store.countFrom(cutoff), `${what}, from ${cutoff - T0}`).toBe(counted(cutoff));
      };
      // Polls every 7 s over 10 hours, starting mid-hour.
      for (let t = T0 + 1_000_000; t < T0 + 37_000_000; t += 7000) store.insert(makeSample(t));
      expectCounts('polls');
      store.prune({ raw: T0 + 5_555_555, minute: 0 });
      expectCounts('after a prune mid-hour');
      // An import of rows older than the first stored one, some on the same times as stored ones.
      store.insertMany(Array.from({ length: 2000 }, (_, i) => makeSample(T0 + 4_000_000 + i * 1000)));
      expectCounts('after an import');
      // A database upgraded from version 5: hours below `below` are not built yet.
      store.db.prepare('DELETE FROM hour WHERE k < ?').run((T0 + 20 * 3_600_000) / 3_600_000);
      store.db.exec(`INSERT INTO upgrade (below) VALUES (${T0 + 20 * 3_600_000})`);
      expectCounts('while the upgrade builds the tiers');
    } finally {
      store.close();
    }
  });
});
