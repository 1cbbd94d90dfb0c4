import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { fromSigenRow } from '../import/sigen-history.js';
import { DurableStore } from './durable-store.js';
import { makeSample, T0 } from '../testing/history/fixtures.js';
import { createHistory, type History, type ImportJob } from './index.js';
import { legacySample } from './legacy-import.js';
import type { HistorySample } from './sample.js';

/**
 * The import worker from each source against inserting the rows one by one as polls do: the same
 * rows end up in `samples`, the same minutes and hours, the same rows refused and counted, and a
 * file that fails leaves the history as it was.
 */
const dirs: string[] = [];
const histories: History[] = [];
afterEach(() => {
  for (const h of histories.splice(0)) h.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rows-'));
  dirs.push(d);
  return d;
};

type Row = Record<string, number | null>;
const tables = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).all() as Row[];
    return { samples: all('SELECT * FROM samples ORDER BY t'), minutes: all('SELECT * FROM minute ORDER BY k'), hours: all('SELECT * FROM hour ORDER BY k') };
  } finally {
    db.close();
  }
};

/** A tier equal to the one polls build, row by row (sums to rounding: the order of addition differs). */
function expectSameTier(actual: Row[], expected: Row[]): void {
  expect(expected.length).toBeGreaterThan(0);
  expect(actual.map((r) => [r.k, r.n])).toEqual(expected.map((r) => [r.k, r.n]));
  actual.forEach((row, i) => {
    for (const [k, v] of Object.entries(expected[i]!)) {
      if (typeof v === 'number' && k.endsWith('_s')) expect(Math.abs((row[k] as number) - v), `${k} of ${row.k}`).toBeLessThan(1e-6);
      else expect(row[k], `${k} of ${row.k}`).toBe(v);
    }
  });
}

/** Samples already in the history before the import: some at the same `t` as the file (those stay). */
const existing = [T0 + 90_000, T0 + 91_000, T0 + 600_000, T0 + 3_600_000].map((t) => ({ ...makeSample(t), solar: -1 }));

/** A data folder whose history holds `before`, one sample per transaction as polls write them; returns its database file. */
function historyWith(before: HistorySample[]): { dataDir: string; file: string } {
  const dataDir = tmp();
  fs.mkdirSync(path.join(dataDir, 'energy'));
  const file = path.join(dataDir, 'energy', 'history.db');
  const store = new DurableStore(file);
  for (const s of before) store.insert(s);
  store.close();
  return { dataDir, file };
}

/** The reference: each sample inserted on its own, in file order, as polls do; returns its tables and how many were new. */
function reference(samples: HistorySample[], cutoff: number) {
  const { file } = historyWith(existing);
  const store = new DurableStore(file);
  let imported = 0;
  for (const s of samples) if (s.t >= cutoff && store.insert(s)) imported++;
  store.close();
  return { imported, ...tables(file) };
}

async function importInto(job: Omit<ImportJob, 'file'> & { file: string }, cutoff: number, before = existing) {
  const { dataDir, file } = historyWith(before);
  const history = createHistory({ dataDir, clock: systemClock, logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
  histories.push(history);
  history.start();
  const [report] = await history.importFiles([job], undefined, cutoff);
  return { report: report!, file };
}

const sigenRow = (t: number): Record<string, unknown> => {
  const s = makeSample(t);
  return { t, pvPower: s.solar, gridPower: s.grid, batteryPower: s.battery, batterySoc: s.soc, loadPower: s.home, outdoorTemp: s.outdoorTemp };
};

describe("sigen-home-bridge's history.db", () => {
  it('brings the same rows and tiers as inserting them one by one, and counts the rows it refuses', async () => {
    const file = path.join(tmp(), 'history.db');
    const db = new Database(file);
    db.exec('CREATE TABLE samples (t INTEGER PRIMARY KEY, pvPower REAL, gridPower REAL, batteryPower REAL, batterySoc REAL, loadPower REAL, outdoorTemp REAL)');
    const insert = db.prepare('INSERT INTO samples VALUES (@t, @pvPower, @gridPower, @batteryPower, @batterySoc, @loadPower, @outdoorTemp)');
    db.transaction(() => {
      // Every 5 s over two hours and more (a sample a second is the same SQL, slower to compare).
      for (let t = T0 - 120_000; t < T0 + 2 * 3_600_000; t += 5000) insert.run(sigenRow(t));
    })();
    insert.run({ ...sigenRow(T0 + 3 * 3_600_000), pvPower: null, gridPower: null, batteryPower: null, loadPower: null }); // no power: readable, kept
    // What the program's REAL columns can still hold that is not a reading: text, a blob, an infinity.
    for (const [k, v] of ["'n/a'", "x'00'", '9e999', '1200'].entries()) db.exec(`INSERT INTO samples (t, pvPower, loadPower) VALUES (${T0 + 4 * 3_600_000 + k * 1000}, ${v}, 300)`);
    const readable = (db.prepare('SELECT * FROM samples ORDER BY t').all() as Array<Record<string, unknown>>).map(fromSigenRow).filter((s): s is HistorySample => s !== null);
    db.close();
    const cutoff = T0 - 60_000; // the first minute of the file is older than the retention
    const expected = reference(readable, cutoff);

    const got = await importInto({ file, format: 'sigen-db' }, cutoff);
    expect(got.report).toEqual({ file, status: 'imported', imported: expected.imported, skipped: 12 + 3 }); // older than the cutoff, and at the times of 3 already stored
    const actual = tables(got.file);
    expect(actual.samples).toEqual(expected.samples);
    expectSameTier(actual.minutes, expected.minutes);
    expectSameTier(actual.hours, expected.hours);
  });
});

describe('JSON files', () => {
  const jsonFile = (items: unknown[]) => {
    const file = path.join(tmp(), 'history.json');
    fs.writeFileSync(file, JSON.stringify(items));
    return file;
  };

  it("sigen-home-bridge's rows: the same rows and tiers as one by one in file order (the first of a repeated t wins), bad rows counted", async () => {
    const items: unknown[] = [];
    for (let t = T0 - 30_000; t < T0 + 1_800_000; t += 1000) items.push({ ...sigenRow(t), extra: 'ignored' });
    items.push({ t: T0 + 5000, pvPower: 1, loadPower: 2 }); // a repeated t: the earlier row stays
    items.push('text', [1, 2], { t: 'yesterday', pvPower: 1 }, { t: T0 + 1.5, pvPower: 1 }, { t: T0 + 7000.0, pvPower: 'n/a' }, null); // 6 unreadable
    const readable = items.map((o) => (typeof o === 'object' && o !== null && !Array.isArray(o) ? fromSigenRow(o as Record<string, unknown>) : null)).filter((s): s is HistorySample => s !== null);
    const expected = reference(readable, T0);
    const file = jsonFile(items);

    const got = await importInto({ file, format: 'sigen-json' }, T0);
    expect(got.report).toEqual({ file, status: 'partial', imported: expected.imported, skipped: readable.length - expected.imported, unreadable: 6, error: '6 entries are not readable rows' });
    const actual = tables(got.file);
    expect(actual.samples).toEqual(expected.samples);
    expectSameTier(actual.minutes, expected.minutes);
    expectSameTier(actual.hours, expected.hours);
  });

  it('our own rows and the legacy shapes, in time order or not: the same samples and tiers as one by one', async () => {
    const items: unknown[] = [];
    for (let t = T0; t < T0 + 1_800_000; t += 1000) {
      const s = makeSample(t);
      if (t % 3000 === 0) items.push(s);
      else if (t % 3000 === 1000) items.push({ ...s, t: undefined, time: new Date(t).toISOString() });
      else items.push({ ...s, t: undefined, timestamp: String(t) });
    }
    // The last ten minutes written before the others, and a repeated time (the first one stays).
    items.unshift(...items.splice(1200), { ...makeSample(T0 + 61_000), solar: 7 });
    const file = jsonFile(items);
    const expected = reference(
      items.map((o, i) => legacySample(JSON.parse(JSON.stringify(o)), i)),
      0,
    );

    const got = await importInto({ file, format: 'legacy-json' }, 0);
    expect(got.report).toEqual({ file, status: 'imported', imported: expected.imported, skipped: 1801 - expected.imported });
    const actual = tables(got.file);
    expect(actual.samples).toEqual(expected.samples);
    expectSameTier(actual.minutes, expected.minutes);
    expectSameTier(actual.hours, expected.hours);
    expect(fs.existsSync(`${file}.imported`)).toBe(true);
  });

  it('a legacy file with a bad entry past the first batches fails whole, naming it, and leaves the history as it was', async () => {
    const items: unknown[] = [];
    for (let t = T0; t < T0 + 20_000_000; t += 1000) items.push(makeSample(t));
    items.push({ t: T0 + 30_000_000, solar: 'lots' });
    const file = jsonFile(items);
    expect(fs.statSync(file).size).toBeGreaterThan(2 << 20);
    const before = tables(historyWith(existing).file);
    const got = await importInto({ file, format: 'legacy-json' }, 0);
    expect(got.report).toEqual({ file, status: 'failed', error: `entry ${items.length - 1}: solar must be a number or null` });
    expect(tables(got.file)).toEqual(before);
    expect(fs.existsSync(file)).toBe(true);
  });
});
