import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { holdWriteLock, makeSample, T0 } from '../testing/history/fixtures.js';
import { createHistory, type History } from './index.js';

/** The import worker beside the service thread's own writes (the poller's inserts). */
const dirs: string[] = [];
const histories: History[] = [];
afterEach(() => {
  for (const h of histories.splice(0)) h.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'import-worker-'));
  dirs.push(d);
  return d;
};

/** sigen-home-bridge's history.db with `rows` samples, one a second from T0. */
function sigenDb(rows: number): string {
  const file = path.join(tmp(), 'history.db');
  const db = new Database(file);
  db.exec('CREATE TABLE samples (t INTEGER PRIMARY KEY, pvPower REAL, gridPower REAL, batteryPower REAL, batterySoc REAL, loadPower REAL, outdoorTemp REAL)');
  const insert = db.prepare('INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(T0 + i * 1000, i % 5000, -(i % 700), 300, 50, 800, 11.5);
  })();
  db.close();
  return file;
}

/** sigen-home-bridge's history.json with `rows` rows, one a second from T0. */
function sigenJson(rows: number): string {
  const file = path.join(tmp(), 'history.json');
  const items = Array.from({ length: rows }, (_, i) => ({ t: T0 + i * 1000, pvPower: i % 5000, gridPower: -(i % 700), batteryPower: 300, batterySoc: 50.5, loadPower: 800, outdoorTemp: 11.5 }));
  fs.writeFileSync(file, JSON.stringify(items));
  return file;
}

const openHistory = () => {
  const history = createHistory({ dataDir: tmp(), clock: systemClock, logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
  histories.push(history);
  history.start();
  return history;
};
const minuteCount = (history: History) => {
  const db = new Database(history.file, { readonly: true });
  try {
    return db.prepare('SELECT sum(n) FROM minute').pluck().get();
  } finally {
    db.close();
  }
};

describe("sigen-home-bridge's history.json, read on a thread of its own while its rows go in", () => {
  it('brings every row once, however far the reading runs ahead of the inserts', async () => {
    // 100,000 rows: a dozen chunks of 8,192, more than the reader may hold ready at once.
    const file = sigenJson(100_000);
    const history = openHistory();
    const [report] = await history.importFiles([{ file, format: 'sigen-json' }]);
    expect(report).toEqual({ file, status: 'imported', imported: 100_000, skipped: 0 });
    expect(history.stats().count).toBe(100_000);
    expect(minuteCount(history)).toBe(100_000);
  });

  it('a file whose first power value comes after many chunks of rows without one: every row', async () => {
    const file = sigenJson(90_000);
    const items = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
    for (const row of items.slice(0, 80_000)) Object.assign(row, { pvPower: null, gridPower: null, batteryPower: null, loadPower: null });
    fs.writeFileSync(file, JSON.stringify(items));
    const history = openHistory();
    const [report] = await history.importFiles([{ file, format: 'sigen-json' }]);
    expect(report).toEqual({ file, status: 'imported', imported: 90_000, skipped: 0 });
  });

  it('a file cut short after rows already went in: the whole rows before the cut, each once, reported partial', async () => {
    const file = sigenJson(50_000);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.slice(0, text.length - 1000));
    const whole = (JSON.parse(`${text.slice(0, text.lastIndexOf('}', text.length - 1000) + 1)}]`) as unknown[]).length;
    const history = openHistory();
    const [report] = await history.importFiles([{ file, format: 'sigen-json' }]);
    expect(report).toMatchObject({ file, status: 'partial', imported: whole, skipped: 0, unreadable: 1 });
    expect(history.stats().count).toBe(whole);
    expect(minuteCount(history)).toBe(whole);
  });
});

describe('an import while the service thread writes', () => {
  it('brings every row, and every poll that came in meanwhile is stored', async () => {
    const rows = 60_000;
    const file = sigenDb(rows);
    const history = createHistory({ dataDir: tmp(), clock: systemClock, logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
    histories.push(history);
    history.start();
    // A poller far faster than the real one (1 s), so its inserts meet the import's transactions.
    let polls = 0;
    let t = T0 + 10 * 86_400_000;
    const poller = setInterval(() => {
      if (history.append(makeSample((t += 1000)))) polls++;
    }, 2);
    try {
      const [report] = await history.importFiles([{ file, format: 'sigen-db' }]);
      expect(report).toEqual({ file, status: 'imported', imported: rows, skipped: 0 });
    } finally {
      clearInterval(poller);
    }
    expect(polls).toBeGreaterThan(0);
    expect(history.stats().count).toBe(rows + polls);
  });

  it('a poll never waits on the service thread for the write lock an import holds: it returns at once and is stored once the lock is free', async () => {
    const history = createHistory({ dataDir: tmp(), clock: createManualClock(T0), logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
    histories.push(history);
    history.start();
    const stored = (t: number) => {
      const db = new Database(history.file, { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM samples WHERE t = ?').pluck().get(t);
      } finally {
        db.close();
      }
    };
    // Another thread holds the write lock for a second. A poll that waited for it (SQLite's busy
    // handler, sleeping on this thread) would be stored by the time append() returns.
    const lock = await holdWriteLock(history.file, 1000);
    expect(history.append(makeSample(T0 + 1000))).toBe(true);
    expect(history.writeError()).toBeNull();
    expect(stored(T0 + 1000)).toBe(0);
    await lock.released;
    // The next poll stores both, in order.
    expect(history.append(makeSample(T0 + 2000))).toBe(true);
    expect(stored(T0 + 1000)).toBe(1);
    expect(stored(T0 + 2000)).toBe(1);
    expect(history.writeError()).toBeNull();
  });

  it('polls that meet a lock held for over an hour of polls: the oldest is dropped and the page is told, the rest are stored once it is free', async () => {
    const history = createHistory({ dataDir: tmp(), clock: createManualClock(T0), logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
    histories.push(history);
    history.start();
    const lock = await holdWriteLock(history.file, 3000);
    // An hour of 1 s polls and one more, all while another connection holds the lock.
    for (let i = 1; i <= 3601; i++) history.append(makeSample(T0 + i * 1000));
    expect(history.writeError()?.message).toMatch(/locked by another connection/);
    await lock.released;
    history.append(makeSample(T0 + 3602 * 1000));
    const db = new Database(history.file, { readonly: true });
    try {
      // (t = 1 is the lock holder's own row.) Every poll but the oldest, and the one after the lock.
      expect(db.prepare('SELECT count(*) FROM samples WHERE t > 1').pluck().get()).toBe(3601);
      expect(db.prepare('SELECT min(t) FROM samples WHERE t > 1').pluck().get()).toBe(T0 + 2000);
    } finally {
      db.close();
    }
  });

  it("leaves the WAL folded back, and the polls' own commits fold it back again afterwards", async () => {
    const rows = 60_000;
    const file = sigenDb(rows);
    const history = createHistory({ dataDir: tmp(), clock: systemClock, logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
    histories.push(history);
    history.start();
    const wal = () => fs.statSync(`${history.file}-wal`).size;
    await history.importFiles([{ file, format: 'sigen-db' }]);
    // The rows are in the database file itself, not only in the WAL (60,000 rows of 6 fields: 2.4 MB).
    expect(fs.statSync(history.file).size).toBeGreaterThan(2 << 20);
    // 1,500 polls, a commit each (thousands of WAL pages): checkpointed every 1,000 pages as
    // before the import, the WAL stays near the 4 MB it is cut back to.
    let t = T0 + 10 * 86_400_000;
    for (let i = 0; i < 1500; i++) history.append(makeSample((t += 1000)));
    expect(wal()).toBeLessThan(6 << 20);
    expect(history.stats().count).toBe(rows + 1500);
  });
});
