import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { DurableStore } from './durable-store.js';
import { makeSample, T0 } from './fixtures.js';
import { Chunker } from './import-copy.js';
import { legacyJsonStage } from './import-json.js';
import { createHistory } from './index.js';
import { halfBoundary, readLegacyJson } from './legacy-json-halves.js';
import { SampleStage } from './sample-stage.js';

/**
 * Our own legacy JSON file read in two halves on two threads (legacy-json-halves.ts) against one
 * reader: the same rows in the same order, the same counts, the same errors, nothing inserted from
 * a file that fails, and no stage files left behind. Files are small here: the size from which a
 * file is split is passed in.
 */
let dir = '';
let tmpdir: string | undefined;
const stores: DurableStore[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legacy-halves-'));
  // The stages go to a directory of the test's own, to see that none is left behind.
  tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = path.join(dir, 'tmp');
  fs.mkdirSync(process.env.TMPDIR);
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  if (tmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpdir;
  fs.rmSync(dir, { recursive: true, force: true });
});
const stagesLeft = () => fs.readdirSync(path.join(dir, 'tmp')).filter((f) => f.startsWith('history-stage-'));
const openStore = () => {
  const s = new DurableStore(path.join(fs.mkdtempSync(path.join(dir, 'db-')), 'history.db'));
  stores.push(s);
  return s;
};
const jsonFile = (text: string) => {
  const file = path.join(dir, `history-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, text);
  return file;
};
const samplesOf = (store: DurableStore) => store.db.prepare('SELECT * FROM samples ORDER BY t').all();
const noProgress = async () => undefined;
/** Every row of the stages, first's then second's. */
const stagedRows = (first: SampleStage, second: SampleStage | null) => [...first.read(0, first.count), ...(second ? second.read(0, second.count) : [])];

/** Imports `file` with the given split size: the counts, what was imported, and the samples. */
async function importWith(file: string, splitBytes: number, cutoff = 0) {
  const store = openStore();
  const stage = legacyJsonStage(store, splitBytes);
  try {
    const counts = await stage.load(file, cutoff);
    const imported = await stage.insert(new Chunker(20, 250, 8192), noProgress);
    return { counts, imported, samples: samplesOf(store) };
  } finally {
    stage.drop();
  }
}

/** A legacy file's entries: one a second from T0, our shapes mixed, with times repeated far apart (the first stays). */
function entries(n: number): unknown[] {
  const items: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const t = T0 + i * 1000;
    const s = makeSample(t);
    if (i % 3 === 0) items.push(s);
    else if (i % 3 === 1) items.push({ ...s, t: undefined, time: new Date(t).toISOString() });
    else items.push({ ...s, t: undefined, timestamp: String(t), outdoorTemp: null });
  }
  // Times of the first half repeated in the second with other values, and the other way round.
  for (let i = 0; i < n; i += 97) items.splice(Math.floor(n * 0.75) + (i % 50), 0, { ...makeSample(T0 + i * 1000), solar: 12345 });
  for (let i = Math.floor(n * 0.6); i < n; i += 89) items.splice(i % 200, 0, { ...makeSample(T0 + i * 1000), solar: 54321 });
  return items;
}

describe('our own legacy JSON file read in two halves on two threads', () => {
  it('gives exactly the rows, order and counts of one reader, and imports the same (a repeated time: the first stays)', async () => {
    const items = entries(6000);
    for (const text of [JSON.stringify(items), JSON.stringify(items, null, 2)]) {
      const file = jsonFile(text);
      const boundary = halfBoundary(file, text.length)!;
      expect(boundary.pauseAt).toBeGreaterThan(text.length / 2);

      const one = new SampleStage();
      const single = await readLegacyJson(file, T0 + 500_000, one, Infinity);
      expect(single.second).toBeNull();
      const first = new SampleStage();
      const split = await readLegacyJson(file, T0 + 500_000, first, 1024);
      // The second thread's half was used: the first stage holds only the rows before the boundary.
      expect(split.second).not.toBeNull();
      expect(first.count).toBeGreaterThan(0);
      expect(split.second!.count).toBeGreaterThan(0);
      expect(split.counts).toEqual(single.counts);
      expect(first.present).toEqual(one.present);
      expect(stagedRows(first, split.second)).toEqual(stagedRows(one, null));
      for (const s of [one, first, split.second!]) s.close();

      const a = await importWith(file, Infinity);
      const b = await importWith(file, 1024);
      expect(b).toEqual(a);
      expect(a.imported).toBe(6000);
      expect(a.samples.some((s) => (s as { solar: number }).solar === 12345 || (s as { solar: number }).solar === 54321)).toBe(true);
    }
    expect(stagesLeft()).toEqual([]);
  });

  it('a boundary found inside a string (an entry whose note holds `},{"t":`): read by one thread, the same rows as one reader', async () => {
    const items: unknown[] = [];
    for (let i = 0; i < 400; i++) items.push(makeSample(T0 + i * 1000));
    // The middle of the file falls inside this note, which looks like entries all the way.
    const fake = Array.from({ length: 1800 }, (_, k) => `},{"t":${T0 + k},"solar":1`).join('');
    items.splice(300, 0, { ...makeSample(T0 + 10_000_000), note: fake });
    const text = JSON.stringify(items);
    const file = jsonFile(text);
    const boundary = halfBoundary(file, text.length)!;
    const noteAt = text.indexOf('"note":"');
    expect(boundary.pauseAt).toBeGreaterThan(noteAt);
    expect(boundary.pauseAt).toBeLessThan(noteAt + fake.length);

    const first = new SampleStage();
    const split = await readLegacyJson(file, 0, first, 1024);
    expect(split.second).toBeNull();
    first.close();
    const a = await importWith(file, Infinity);
    expect(await importWith(file, 1024)).toEqual(a);
    expect(a.imported).toBe(401);
    expect(stagesLeft()).toEqual([]);
  });

  it.each([
    ['a bad entry in the second half', (items: unknown[]) => JSON.stringify(items.toSpliced(4500, 0, { t: T0 + 1, solar: 'lots' })), 'entry 4500: solar must be a number or null'],
    ['an entry that is not JSON in the second half', (items: unknown[]) => JSON.stringify(items).replace(`{"t":${T0 + 5000 * 1000},`, `{"t":${T0 + 5000 * 1000},x,`), 'entry 5000: not valid JSON'],
    ['a file cut short', (items: unknown[]) => JSON.stringify(items).slice(0, -30), 'not valid JSON (the file ends inside entry 5999)'],
    ['a bad entry in the first half', (items: unknown[]) => JSON.stringify(items.toSpliced(1000, 0, { t: T0 + 1, grid: '12' })), 'entry 1000: grid must be a number or null'],
  ] as const)('%s fails the whole file with the message of one reader, nothing inserted, no stage left', async (_what, make, message) => {
    const items = Array.from({ length: 6000 }, (_, i) => makeSample(T0 + i * 1000));
    const file = jsonFile(make(items));
    const single = await importWith(file, Infinity).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(single).toContain(message);
    const store = openStore();
    const stage = legacyJsonStage(store, 1024);
    await expect(stage.load(file, 0)).rejects.toThrow(single!);
    stage.drop();
    expect(samplesOf(store)).toEqual([]);
    expect(stagesLeft()).toEqual([]);
  });

  it('an import stopped while the file is being read (its worker terminated) inserts nothing and leaves no stage behind', async () => {
    // Read in two halves at the default size, and long enough to read (about 70 MB: a second or
    // more on these machines, both threads reading) that the stop below comes while it is read,
    // well before any row could go in. The same 10,000 rows over and over (a repeated time is
    // read like any other), written a block at a time.
    const file = path.join(dir, 'history.json');
    const block = Buffer.from(Array.from({ length: 10_000 }, (_, i) => JSON.stringify(makeSample(T0 + i * 1000))).join(','));
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, '[');
    for (let k = 0; k < 60; k++) {
      if (k) fs.writeSync(fd, ',');
      fs.writeSync(fd, block);
    }
    fs.writeSync(fd, ']');
    fs.closeSync(fd);
    expect(fs.statSync(file).size).toBeGreaterThan(48 << 20);
    const dataDir = path.join(dir, 'data');
    const history = createHistory({ dataDir, clock: systemClock, logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
    history.start();
    let inserting = false;
    const done = history.importFiles([{ file, format: 'legacy-json' }], (reports) => {
      if (reports.some((r) => (r.progress?.done ?? 0) > 0)) inserting = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    history.stop();
    const [report] = await done;
    // Stopped while reading (no row had gone in yet), not after.
    expect(inserting).toBe(false);
    expect(report?.status).toBe('failed');
    const db = new Database(history.file, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM samples').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
    expect(fs.existsSync(file)).toBe(true);
    // The threads are gone shortly after; nothing of theirs is left in the temporary directory.
    await vi.waitFor(() => expect(stagesLeft()).toEqual([]), { timeout: 5_000, interval: 20 });
  });
});
