import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { fromSigenRow } from '../import/sigen-history.js';
import { DurableStore } from './durable-store.js';
import { makeSample, T0 } from './fixtures.js';
import { Chunker } from './import-copy.js';
import { legacyJsonStage, sigenJsonRows } from './import-json.js';
import { sigenDbSource } from './import-sql.js';
import { legacySample } from './legacy-import.js';
import type { HistorySample } from './sample.js';

/**
 * The import's bulk path (copyRows) from each source against inserting the rows one by one: the
 * same rows must end up in `samples`, the same tiers (minutes and hours) as polls build
 * sample by sample, the same rows refused and counted, and a file that fails leaves the history as
 * it was.
 */
const dirs: string[] = [];
const stores: DurableStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'import-copy-'));
  dirs.push(d);
  return d;
};
const openStore = () => {
  const s = new DurableStore(path.join(tmp(), 'history.db'));
  stores.push(s);
  return s;
};
const noProgress = async () => undefined;
/**
 * Many small transactions (250 rows each, less than a 10-minute page), as under a slow disk: the
 * ranges must join up exactly, and the rollups are read back from the table; or transactions of
 * whole pages (up to 5,000 rows), whose rollups are folded from the rows they copy.
 */
const chunkings = [
  { name: '250-row transactions', chunker: () => new Chunker(8, 250, 250) },
  { name: 'transactions of whole pages', chunker: () => new Chunker(8, 5000, 5000) },
];

type Row = Record<string, number | null>;
const samplesOf = (s: DurableStore) => s.db.prepare('SELECT * FROM main.samples ORDER BY t').all() as Row[];
const minutesOf = (s: DurableStore) => s.db.prepare('SELECT * FROM main.minute ORDER BY k').all() as Row[];
const hoursOf = (s: DurableStore) => s.db.prepare('SELECT * FROM main.hour ORDER BY k').all() as Row[];

/** A tier equal to the one polls build, row by row (sums to rounding: the order of addition differs). */
function expectSameMinutes(actual: Row[], expected: Row[]): void {
  expect(expected.length).toBeGreaterThan(0);
  expect(actual.map((r) => [r.k, r.n])).toEqual(expected.map((r) => [r.k, r.n]));
  actual.forEach((row, i) => {
    for (const [k, v] of Object.entries(expected[i]!)) {
      if (typeof v === 'number' && k.endsWith('_s')) expect(Math.abs((row[k] as number) - v), `${k} of ${row.k}`).toBeLessThan(1e-6);
      else expect(row[k], `${k} of ${row.k}`).toBe(v);
    }
  });
}

/** The reference: each sample inserted on its own, in file order, through the per-sample trigger. */
function referenceStore(existing: HistorySample[], samples: HistorySample[], cutoff: number): { store: DurableStore; imported: number } {
  const store = openStore();
  for (const s of existing) store.insert(s);
  let imported = 0;
  for (const s of samples) if (s.t >= cutoff && store.insert(s)) imported++;
  return { store, imported };
}

/** Samples already in the history before the import: some at the same `t` as the file (those stay). */
const existing = [T0 + 90_000, T0 + 91_000, T0 + 600_000, T0 + 3_600_000].map((t) => ({ ...makeSample(t), solar: -1 }));

describe("sigen-home-bridge's history.db, copied in SQL", () => {
  /** Its table, as the program creates it, with `rows` (sigen field names), plus some it could not have written well. */
  function sigenDb(rows: Array<Record<string, unknown>>, raw: string[] = []): string {
    const file = path.join(tmp(), 'history.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE samples (t INTEGER PRIMARY KEY, pvPower REAL, gridPower REAL, batteryPower REAL, batterySoc REAL, loadPower REAL, outdoorTemp REAL)');
    const insert = db.prepare('INSERT INTO samples VALUES (@t, @pvPower, @gridPower, @batteryPower, @batterySoc, @loadPower, @outdoorTemp)');
    for (const r of rows) insert.run({ pvPower: null, gridPower: null, batteryPower: null, batterySoc: null, loadPower: null, outdoorTemp: null, ...r });
    for (const sql of raw) db.exec(sql);
    db.close();
    return file;
  }
  const sigenRow = (t: number): Record<string, unknown> => {
    const s = makeSample(t);
    return { t, pvPower: s.solar, gridPower: s.grid, batteryPower: s.battery, batterySoc: s.soc, loadPower: s.home, outdoorTemp: s.outdoorTemp };
  };
  /** What the per-row path reads of that file (fromSigenRow on each row, in `t` order). */
  const readRows = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare('SELECT * FROM samples ORDER BY t').all() as Array<Record<string, unknown>>;
    } finally {
      db.close();
    }
  };

  it.each(chunkings)('brings the same rows and the same rollups as inserting them one by one, and counts the rows it refuses ($name)', async ({ chunker }) => {
    const rows = [];
    for (let t = T0 - 120_000; t < T0 + 2 * 3_600_000; t += 1000) rows.push(sigenRow(t));
    rows.push({ ...sigenRow(T0 + 3 * 3_600_000), pvPower: null, gridPower: null, batteryPower: null, loadPower: null }); // no power: readable, kept
    const file = sigenDb(rows, [
      // What the program's REAL columns can still hold that is not a reading: text, a blob, an infinity.
      `INSERT INTO samples (t, pvPower, loadPower) VALUES (${T0 + 4 * 3_600_000}, 'n/a', 300)`,
      `INSERT INTO samples (t, pvPower, loadPower) VALUES (${T0 + 4 * 3_600_000 + 1000}, x'00', 300)`,
      `INSERT INTO samples (t, pvPower, loadPower) VALUES (${T0 + 4 * 3_600_000 + 2000}, 9e999, 300)`,
      `INSERT INTO samples (t, pvPower, loadPower) VALUES (${T0 + 4 * 3_600_000 + 3000}, 1200, 300)`,
    ]);
    const cutoff = T0 - 60_000; // the first minute of the file is older than the retention
    const read = readRows(file).map((r) => ({ r, s: fromSigenRow(r) }));
    const readable = read.filter((x) => x.s).map((x) => x.s!);
    const reference = referenceStore(existing, readable, cutoff);

    const store = openStore();
    for (const s of existing) store.insert(s);
    const source = sigenDbSource(store, file)!;
    expect(source.check(cutoff).anyPower).toBe(true);
    const counts = await source.insert(cutoff, chunker(), noProgress);
    source.detach();

    expect(counts.imported).toBe(reference.imported);
    expect(counts.rows).toBe(readable.length);
    expect(counts.unreadable).toBe(3); // the text, the blob and the infinity
    expect(counts.rows - counts.imported).toBe(60 + existing.length); // older than the cutoff, and those already stored
    expect(samplesOf(store)).toEqual(samplesOf(reference.store));
    expectSameMinutes(minutesOf(store), minutesOf(reference.store));
    expectSameMinutes(hoursOf(store), hoursOf(reference.store));
    // A poll after the import still adds itself to its minute.
    store.insert(makeSample(T0 + 5 * 3_600_000));
    expect(store.db.prepare('SELECT n FROM minute WHERE k = ?').pluck().get((T0 + 5 * 3_600_000) / 60_000)).toBe(1);
  });

  it('importing the same file twice equals importing it once', async () => {
    const rows = [];
    // 20 minutes: at least one sealed 10-minute page of the 10 s rollup.
    for (let t = T0; t < T0 + 1_200_000; t += 1000) rows.push(sigenRow(t));
    const file = sigenDb(rows);
    const store = openStore();
    for (const round of [0, 1]) {
      const source = sigenDbSource(store, file)!;
      const counts = await source.insert(0, new Chunker(8, 250, 50_000), noProgress);
      source.detach();
      expect(counts.imported).toBe(round === 0 ? 1200 : 0);
    }
    const reference = referenceStore([], rows.map((r) => fromSigenRow(r)!), 0);
    expect(samplesOf(store)).toEqual(samplesOf(reference.store));
    expectSameMinutes(minutesOf(store), minutesOf(reference.store));
    expectSameMinutes(hoursOf(store), hoursOf(reference.store));
  });

  it('replaces rollup rows left in pages that hold no samples (an older build), rather than failing on them', async () => {
    const rows = [];
    for (let t = T0; t < T0 + 1_800_000; t += 1000) rows.push(sigenRow(t));
    const file = sigenDb(rows);
    const store = openStore();
    store.db.prepare('INSERT INTO minute (k, n) VALUES (?, 99)').run(T0 / 60_000 + 3);
    const source = sigenDbSource(store, file)!;
    expect((await source.insert(0, new Chunker(8, 5000, 5000), noProgress)).imported).toBe(1800);
    source.detach();
    const reference = referenceStore([], rows.map((r) => fromSigenRow(r)!), 0);
    expectSameMinutes(minutesOf(store), minutesOf(reference.store));
    expectSameMinutes(hoursOf(store), hoursOf(reference.store));
  });

  it('sees a file without a power value, and a table that is not its own', () => {
    const noPower = sigenDb([{ t: T0, batterySoc: 50 }, { t: T0 + 1000, outdoorTemp: 4 }]);
    const store = openStore();
    const source = sigenDbSource(store, noPower)!;
    expect(source.check(0)).toEqual({ anyPower: false, inRetention: 2 });
    expect(source.readable()).toBe(2);
    source.detach();

    const other = path.join(tmp(), 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE samples (t INTEGER PRIMARY KEY, watts REAL)');
    db.close();
    expect(sigenDbSource(store, other)).toBeNull();
    expect(store.db.prepare('PRAGMA database_list').all().map((d) => (d as { name: string }).name)).toEqual(['main']);
  });
});

describe('JSON files: sigen-home-bridge\'s read on a thread of its own while inserted, our own staged first', () => {
  function jsonFile(items: unknown[] | string): string {
    const file = path.join(tmp(), 'history.json');
    fs.writeFileSync(file, typeof items === 'string' ? items : JSON.stringify(items));
    return file;
  }

  it.each(chunkings)("sigen-home-bridge's rows: the same rows and rollups as one by one in file order (the first of a repeated t wins), bad rows counted ($name)", async ({ chunker }) => {
    const items: unknown[] = [];
    for (let t = T0 - 30_000; t < T0 + 1_800_000; t += 1000) {
      const s = makeSample(t);
      items.push({ t, pvPower: s.solar, gridPower: s.grid, batteryPower: s.battery, batterySoc: s.soc, loadPower: s.home, outdoorTemp: s.outdoorTemp, extra: 'ignored' });
    }
    items.push({ t: T0 + 5000, pvPower: 1, loadPower: 2 }); // a repeated t: the earlier row stays
    items.push('text', [1, 2], { t: 'yesterday', pvPower: 1 }, { t: T0 + 1.5, pvPower: 1 }, { t: T0 + 7000.0, pvPower: 'n/a' }, null); // 6 unreadable
    const file = jsonFile(items);
    const cutoff = T0;
    const readable = items.map((o) => (typeof o === 'object' && o !== null && !Array.isArray(o) ? fromSigenRow(o as Record<string, unknown>) : null)).filter((s): s is HistorySample => s !== null);
    const reference = referenceStore(existing, readable, cutoff);

    const store = openStore();
    for (const s of existing) store.insert(s);
    const rows = sigenJsonRows(store, file, cutoff);
    let covered = 0;
    let imported: number;
    let counts;
    try {
      expect((await rows.start()).withPower).toBeGreaterThan(0);
      ({ imported, counts } = await rows.insert(chunker(), async (c) => {
        covered += c;
      }));
    } finally {
      rows.close();
    }
    expect(counts.unreadable).toBe(6);
    expect(counts.rows).toBe(readable.length);
    expect(counts.withPower).toBe(readable.filter((s) => s.solar !== null || s.grid !== null || s.battery !== null || s.home !== null).length);
    expect(counts.inRetention).toBe(readable.filter((s) => s.t >= cutoff).length);
    expect(covered).toBe(counts.inRetention);
    expect(imported).toBe(reference.imported);
    expect(samplesOf(store)).toEqual(samplesOf(reference.store));
    expectSameMinutes(minutesOf(store), minutesOf(reference.store));
    expectSameMinutes(hoursOf(store), hoursOf(reference.store));
  });

  it.each(chunkings)('our own rows and the legacy shapes, in time order or not: the same samples and rollups as the per-row reader ($name)', async ({ chunker }) => {
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
    const samples = items.map((o, i) => legacySample(JSON.parse(JSON.stringify(o)), i));
    const reference = referenceStore([], samples, 0);
    const store = openStore();
    const stage = legacyJsonStage(store);
    expect(await stage.load(file, 0)).toEqual({ rows: 1801, withPower: 1801, inRetention: 1801, unreadable: 0, bytes: fs.statSync(file).size - 1 });
    expect(await stage.insert(chunker(), noProgress)).toBe(1800);
    stage.drop();
    expect(samplesOf(store)).toEqual(samplesOf(reference.store));
    expectSameMinutes(minutesOf(store), minutesOf(reference.store));
    expectSameMinutes(hoursOf(store), hoursOf(reference.store));
  });

  it('a legacy file with a bad entry past the first MiB fails whole, naming it, and leaves the history as it was', async () => {
    const items: unknown[] = [];
    for (let t = T0; t < T0 + 20_000_000; t += 1000) items.push(makeSample(t));
    items.push({ t: T0 + 30_000_000, solar: 'lots' });
    const file = jsonFile(items);
    expect(fs.statSync(file).size).toBeGreaterThan(2 << 20);
    const store = openStore();
    for (const s of existing) store.insert(s);
    const before = { samples: samplesOf(store), minutes: minutesOf(store) };
    const stage = legacyJsonStage(store);
    await expect(stage.load(file, 0)).rejects.toThrow(`entry ${items.length - 1}: solar must be a number or null`);
    stage.drop();
    expect(samplesOf(store)).toEqual(before.samples);
    expect(minutesOf(store)).toEqual(before.minutes);
    expect(store.db.inTransaction).toBe(false);
  });
});
