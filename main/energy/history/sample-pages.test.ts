import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger, silentLogger } from '../../core/logger.js';
import { fillDisk, tmpfsUnavailable, tryMountTmpfs, unmount } from '../../core/testing/tmpfs.js';
import { PAGE_MS, pageOf } from './block-pages.js';
import { DurableStore } from './durable-store.js';
import { historyMigrations } from './durable-schema.js';
import { migrate } from '../../core/sqlite.js';
import { Rollups } from './rollups.js';
import { exportPageEnd, writeExportPage, type ExportFormat } from './export.js';
import { ExportRowWriter } from './export-rows.js';
import { makeSample, openTestHistory, T0 } from './fixtures.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';
import { SamplePageFill } from './sample-page-fill.js';
import { encodeSamplePage, MAX_PAGE_ROWS, ROW_WIDTH, SamplePage } from './sample-pages.js';

const rowOf = (s: HistorySample): unknown[] => [s.t, ...SAMPLE_FIELDS.map((f) => s[f])];
/** What a page gives back for row `j`, missing values as null. */
const readBack = (page: SamplePage, j: number): Array<number | null> => {
  const rows = new Float64Array(2 * ROW_WIDTH).fill(-1);
  page.decode(rows, j, j + 1);
  expect(rows[ROW_WIDTH]).toBe(-1);
  return Array.from(rows.subarray(0, ROW_WIDTH), (v) => (Number.isNaN(v) ? null : v));
};

const dirs: string[] = [];
const stores: DurableStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function openStore(): DurableStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sample-pages-'));
  dirs.push(dir);
  const store = new DurableStore(path.join(dir, 'history.db'));
  stores.push(store);
  return store;
}
const count = (store: DurableStore, table: string): number => store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
const packedPages = (store: DurableStore): number[] => store.db.prepare('SELECT p FROM sample_pages ORDER BY p').pluck().all() as number[];
const duePages = (store: DurableStore): number[] => store.db.prepare('SELECT p FROM sample_pages_due ORDER BY p').pluck().all() as number[];
const fillAll = (store: DurableStore): void => {
  while (store.fillSamplePages(3) === 3);
};

/** The whole export as the reader workers write it, in pages of `pageRows` rows. */
function exportAll(store: DurableStore, format: ExportFormat, pageRows: number): string {
  const parts: Buffer[] = [];
  const writer = new ExportRowWriter(format, (b) => parts.push(Buffer.from(b)), { chunkBytes: 64 * 1024 });
  let after = -1;
  for (;;) {
    const end = exportPageEnd(store, after, pageRows);
    writeExportPage(store, writer, after, end, pageRows);
    if (end === null) break;
    after = end;
  }
  writer.flush();
  return Buffer.concat(parts).toString('latin1');
}

describe('a packed sample page', () => {
  it('gives back every value exactly: hundredths, other doubles, missing values, a field with none', () => {
    const p = pageOf(T0) + 3;
    const rows = [
      [p * PAGE_MS, 1234.56, -0.01, 0.1 + 0.2, null, 2 ** 40, 21474836.47, -21474836.48, 1e-7, 55.5, null],
      [p * PAGE_MS + 1, -5, 12, null, null, 3, 4, 5, Infinity, 100, null],
      [p * PAGE_MS + PAGE_MS - 1, 0, 7.25, -1e300, null, -3.5, 21474836.48, null, 6, 0, null],
    ];
    const blob = encodeSamplePage(p, rows);
    const page = SamplePage.open(p, blob)!;
    expect(page.rows).toBe(3);
    rows.forEach((row, j) => expect(readBack(page, j)).toEqual(row));
    // A blob that does not start on 8 bytes in its buffer reads the same.
    const shifted = new Uint8Array(blob.byteLength + 3).subarray(3);
    shifted.set(blob);
    rows.forEach((row, j) => expect(readBack(SamplePage.open(p, shifted)!, j)).toEqual(row));
    expect(page.firstAfter(p * PAGE_MS)).toBe(1);
    expect(page.firstAfter(p * PAGE_MS - 1)).toBe(0);
    expect(page.firstAfter((p + 1) * PAGE_MS)).toBe(3);
  });

  it('is smaller than the raw values when they are whole hundredths (4 bytes each)', () => {
    const p = pageOf(T0);
    const rows = Array.from({ length: 600 }, (_, i) => rowOf(makeSample(p * PAGE_MS + i * 1000)));
    expect(encodeSamplePage(p, rows).byteLength).toBeLessThan(600 * (4 + 4 * SAMPLE_FIELDS.length) + 100);
  });

  it('refuses a blob it did not write (another version, another field count, cut short): the page is read row by row', () => {
    const p = pageOf(T0);
    const blob = encodeSamplePage(p, [rowOf(makeSample(p * PAGE_MS))]);
    expect(SamplePage.open(p, blob)).not.toBeNull();
    expect(SamplePage.open(p, Buffer.concat([Buffer.from([2]), blob.subarray(1)]))).toBeNull();
    expect(SamplePage.open(p, Buffer.concat([blob.subarray(0, 1), Buffer.from([SAMPLE_FIELDS.length + 1]), blob.subarray(2)]))).toBeNull();
    expect(SamplePage.open(p, blob.subarray(0, blob.byteLength - 8))).toBeNull();
    expect(SamplePage.open(p, new Uint8Array(4))).toBeNull();
    expect(() => encodeSamplePage(p, [rowOf(makeSample((p + 1) * PAGE_MS))])).toThrow(/not in page/);
  });
});

describe('exports from packed pages', () => {
  /** 2 s samples over 100 minutes with a gap of two whole pages, a few with long decimals. */
  function fillStore(store: DurableStore): HistorySample[] {
    const samples: HistorySample[] = [];
    for (let i = 0; i < 3000; i++) {
      if (i >= 600 && i < 1300) continue; // 20 to 43 minutes in: none
      const s = makeSample(T0 + 123 + i * 2000);
      if (i % 97 === 0) s.grid = (s.grid ?? 0) + 1 / 3;
      samples.push(s);
    }
    store.insertMany(samples);
    return samples;
  }

  it('writes the same bytes as the rows read one by one, whatever the export pages, packed or not', () => {
    const store = openStore();
    const samples = fillStore(store);
    const sealed = pageOf(samples.at(-1)!.t);
    const raw = { csv: exportAll(store, 'csv', 1000), json: exportAll(store, 'json', 1000) };
    expect(JSON.parse('[' + raw.json + ']')).toEqual(samples);
    expect(packedPages(store)).toEqual([]);
    // Every page with samples before the newest sample's is sealed and due.
    const pages = [...new Set(samples.map((s) => pageOf(s.t)))];
    expect(pages).toHaveLength(8);
    expect(duePages(store)).toEqual(pages.filter((p) => p < sealed));
    // Some pages packed, some not yet.
    store.fillSamplePages(4);
    expect(packedPages(store)).toHaveLength(4);
    for (const rows of [1, 77, 300, 1000, 8192]) {
      expect(exportAll(store, 'json', rows)).toBe(raw.json);
      expect(exportAll(store, 'csv', rows)).toBe(raw.csv);
    }
    fillAll(store);
    expect(duePages(store)).toEqual([]);
    expect(packedPages(store).every((p) => p < sealed)).toBe(true);
    for (const rows of [1, 77, 300, 1000, 8192]) {
      expect(exportAll(store, 'json', rows)).toBe(raw.json);
      expect(exportAll(store, 'csv', rows)).toBe(raw.csv);
    }
  });

  it('ends each export page after exactly the rows asked for, counting packed pages without reading them', () => {
    const store = openStore();
    const samples = fillStore(store);
    store.fillSamplePages(3);
    const reference = store.db.prepare('SELECT t FROM samples WHERE t > ? ORDER BY t LIMIT 1 OFFSET ?').pluck();
    const afters = [-1, samples[0]!.t, samples[5]!.t + 1, samples[299]!.t, samples[300]!.t - 1, samples[900]!.t, samples[1800]!.t, samples.at(-3)!.t];
    for (const after of afters) {
      for (const rows of [1, 2, 7, 299, 300, 301, 600, 1000, 2500]) {
        expect(exportPageEnd(store, after, rows), `after ${after}, ${rows} rows`).toBe((reference.get(after, rows - 1) as number | undefined) ?? null);
      }
    }
  });

  it('stops at the row limit of the last export page, inside a packed page', () => {
    const store = openStore();
    const samples = fillStore(store);
    fillAll(store);
    const parts: Buffer[] = [];
    const writer = new ExportRowWriter('json', (b) => parts.push(Buffer.from(b)));
    const after = samples[10]!.t;
    expect(writeExportPage(store, writer, after, null, 250)).toBe(250);
    writer.flush();
    expect(JSON.parse('[' + Buffer.concat(parts).toString() + ']')).toEqual(samples.slice(11, 261));
  });

  it('drops a page when a writer changes it and packs it again: an import into the past, a prune', () => {
    const store = openStore();
    const samples = fillStore(store);
    fillAll(store);
    const p = pageOf(samples[0]!.t) + 2;
    const late = makeSample(p * PAGE_MS + 1001);
    expect(store.insertMany([late])).toBe(1);
    expect(packedPages(store)).not.toContain(p);
    expect(duePages(store)).toEqual([p]);
    fillAll(store);
    expect(packedPages(store)).toContain(p);
    const withLate = [...samples, late].sort((a, b) => a.t - b.t);
    expect(JSON.parse('[' + exportAll(store, 'json', 500) + ']')).toEqual(withLate);

    const cutoff = samples[400]!.t;
    store.prune(cutoff);
    expect(packedPages(store).every((q) => q > pageOf(cutoff))).toBe(true);
    expect(duePages(store)).toEqual([pageOf(cutoff)]);
    fillAll(store);
    expect(JSON.parse('[' + exportAll(store, 'json', 500) + ']')).toEqual(withLate.filter((s) => s.t >= cutoff));
  });

  it('makes a page due when a poll seals it, not before', () => {
    const store = openStore();
    const p = pageOf(T0) + 1;
    for (let t = p * PAGE_MS; t < (p + 1) * PAGE_MS; t += 5000) store.insert(makeSample(t));
    expect(duePages(store)).toEqual([]);
    store.insert(makeSample((p + 1) * PAGE_MS + 2000));
    expect(duePages(store)).toEqual([p]);
    fillAll(store);
    expect(packedPages(store)).toEqual([p]);
  });

  it('leaves a page denser than 100 samples a second unpacked and still exports it whole', () => {
    const store = openStore();
    const p = pageOf(T0);
    const dense = Array.from({ length: MAX_PAGE_ROWS + 1 }, (_, i) => makeSample(p * PAGE_MS + i * 5));
    store.insertMany([...dense, makeSample((p + 1) * PAGE_MS)]);
    fillAll(store);
    expect(packedPages(store)).toEqual([]);
    expect(duePages(store)).toEqual([]);
    expect(exportAll(store, 'csv', 8192).split('\n')).toHaveLength(MAX_PAGE_ROWS + 3);
  });

  it('marks every sealed page of a database from before them due (the upgrade), and packs them', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sample-pages-'));
    dirs.push(dir);
    const file = path.join(dir, 'history.db');
    // A database as version 4 left it: 50 minutes of 1 s samples with their rollups.
    const samples = Array.from({ length: 3000 }, (_, i) => makeSample(T0 + i * 1000));
    {
      const db = new Database(file);
      migrate(db, historyMigrations.filter((m) => m.version <= 4));
      const insert = db.prepare(`INSERT INTO samples (t, ${SAMPLE_FIELDS.join(', ')}) VALUES (${['t', ...SAMPLE_FIELDS].map(() => '?').join(', ')})`);
      db.transaction(() => samples.forEach((s) => insert.run(rowOf(s))))();
      new Rollups(db).rebuild(samples[0]!.t, samples.at(-1)!.t);
      expect(db.prepare('SELECT count(*) FROM block_pages').pluck().get()).toBe(4);
      db.close();
    }
    const store = new DurableStore(file);
    stores.push(store);
    expect(duePages(store)).toEqual([0, 1, 2, 3].map((k) => pageOf(T0) + k));
    const before = exportAll(store, 'json', 1000);
    fillAll(store);
    expect(packedPages(store)).toHaveLength(4);
    expect(exportAll(store, 'json', 1000)).toBe(before);
    expect(JSON.parse('[' + before + ']')).toEqual(samples);
  });
});

describe('packing in the background', () => {
  it('packs what a start finds due, a few pages a turn, and the export is the same before and after', async () => {
    const th = await openTestHistory();
    try {
      const samples: HistorySample[] = [];
      for (let i = 0; i < 6000; i++) samples.push(makeSample(T0 + i * 1000));
      const store = new DurableStore(th.history.file);
      store.insertMany(samples);
      store.close();
      await th.restart();
      const before = (await th.get('/api/history/export?format=json')).text;
      await th.history.fillSamplePages();
      const db = new Database(th.history.file, { readonly: true });
      try {
        expect(db.prepare('SELECT count(*) FROM sample_pages').pluck().get()).toBe(9);
        expect(db.prepare('SELECT count(*) FROM sample_pages_due').pluck().get()).toBe(0);
      } finally {
        db.close();
      }
      expect((await th.get('/api/history/export?format=json')).text).toBe(before);
      expect(JSON.parse(before)).toEqual(samples);
    } finally {
      await th.close();
    }
  });

  it('lets the event loop turn between batches and stops when told', async () => {
    const store = openStore();
    const samples = Array.from({ length: 12_000 }, (_, i) => makeSample(T0 + i * 1000));
    store.insertMany(samples);
    expect(duePages(store)).toHaveLength(19);
    const fill = new SamplePageFill(store, { logger: silentLogger, pagesPerTurn: 2 });
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const done = fill.kick();
    expect(fill.kick()).toBe(done);
    await new Promise((r) => setTimeout(r, 5));
    fill.stop();
    await done;
    clearInterval(ticker);
    expect(turns).toBeGreaterThan(0);
    const left = duePages(store).length;
    expect(left).toBeLessThan(19);
    expect(count(store, 'sample_pages') + left).toBe(19);
    await new SamplePageFill(store, { logger: silentLogger }).kick();
    expect(duePages(store)).toEqual([]);
  });

  it('waits while an import writes and packs once it is over', async () => {
    const store = openStore();
    store.insertMany(Array.from({ length: 3000 }, (_, i) => makeSample(T0 + i * 1000)));
    let importing = true;
    const fill = new SamplePageFill(store, { logger: silentLogger, paused: () => importing });
    await fill.kick();
    expect(count(store, 'sample_pages')).toBe(0);
    importing = false;
    await fill.kick();
    expect(count(store, 'sample_pages')).toBe(4);
  });
});

const cannotMount = tmpfsUnavailable(os.tmpdir());
if (cannotMount) console.log(`SKIPPED packing on a full disk: ${cannotMount}`);

describe.skipIf(cannotMount !== null)('packing on a full disk (a 4 MiB tmpfs the test mounts and fills)', () => {
  it('says so once, keeps the pages due and exports them whole row by row; packs them once space returns', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sample-pages-full-'));
    const why = tryMountTmpfs(dir, '4m');
    if (why) throw new Error(why);
    const warnings: string[] = [];
    const logger = createLogger({
      level: 'warn',
      format: 'json',
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) warnings.push((JSON.parse(l) as { msg: string }).msg);
          done();
        },
      }),
    });
    const store = new DurableStore(path.join(dir, 'history.db'));
    try {
      const samples = Array.from({ length: 3000 }, (_, i) => makeSample(T0 + i * 1000));
      store.insertMany(samples);
      store.db.pragma('wal_checkpoint(TRUNCATE)');
      const filler = fillDisk(dir);
      const fill = new SamplePageFill(store, { logger });
      await fill.kick();
      expect(warnings).toEqual(['history pages not packed for the exports; they are read row by row meanwhile']);
      expect(duePages(store)).toHaveLength(4);
      expect(JSON.parse('[' + exportAll(store, 'json', 1000) + ']')).toEqual(samples);
      fs.rmSync(filler);
      await fill.kick();
      expect(duePages(store)).toEqual([]);
      expect(count(store, 'sample_pages')).toBe(4);
      expect(JSON.parse('[' + exportAll(store, 'json', 1000) + ']')).toEqual(samples);
    } finally {
      store.close();
      unmount(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
