import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { makeSample, T0 } from './fixtures.js';
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

  it("leaves the WAL folded back, and the polls' own commits fold it back again afterwards", async () => {
    const rows = 60_000;
    const file = sigenDb(rows);
    const history = createHistory({ dataDir: tmp(), clock: systemClock, logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
    histories.push(history);
    history.start();
    const wal = () => fs.statSync(`${history.file}-wal`).size;
    await history.importFiles([{ file, format: 'sigen-db' }]);
    // The rows are in the database file itself, not only in the WAL.
    expect(fs.statSync(history.file).size).toBeGreaterThan(3 << 20);
    // 1,500 polls, a commit each (thousands of WAL pages): checkpointed every 1,000 pages as
    // before the import, the WAL stays near the 4 MB it is cut back to.
    let t = T0 + 10 * 86_400_000;
    for (let i = 0; i < 1500; i++) history.append(makeSample((t += 1000)));
    expect(wal()).toBeLessThan(6 << 20);
    expect(history.stats().count).toBe(rows + 1500);
  });
});
