/**
 * Imports history files on a thread of its own (started after the HTTP port opens, or by an import
 * from another program), with its own SQLite connection. Every format takes one path: its rows are
 * read a page at a time, checked, and written BATCH at a time, each batch one transaction that
 * also rebuilds the minutes and hours it touched (DurableStore.insertMany), so a kill -9 leaves
 * whole batches with their tiers; progress is posted after each. Rows already stored (same `t`)
 * are skipped, so importing twice equals once.
 *
 * - `legacy-json` (`<data>/energy/history.json`): read and checked to its end first (a malformed
 *   file is never half-imported), read again to insert, then renamed `.imported`. A crash mid-file
 *   leaves the file in place; the next start imports it again.
 * - `sigen-db`, `sigen-json`: sigen-home-bridge's files, read where they are and never changed; a
 *   damaged file gives what can be read and the report says `partial` (a JSON file whose structure
 *   is damaged is read whole, to salvage the rows on both sides of the damage).
 *
 * JSON files are never held whole (json-array-stream.ts). Nothing goes in before a row with a power
 * value has been read: a file without one is refused untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { IMPORT_CAPS, importFileProblem, jsonFailure, plainReason } from '../../core/import-file.js';
import { fromSigenRow, hasPower, readSigenJson, sigenDbPages, type SourceRead } from '../import/sigen-history.js';
import { DurableStore } from './durable-store.js';
import { JsonArrayError, readJsonArray } from './json-array-stream.js';
import { legacySample, noPowerMessage, type LegacyImportReport } from './legacy-import.js';
import type { HistorySample } from './sample.js';

export type ImportFormat = 'legacy-json' | 'sigen-db' | 'sigen-json';
export interface ImportJob {
  file: string;
  format: ImportFormat;
}

export type ImportMessage =
  | { type: 'progress'; file: string; done: number; total: number }
  | { type: 'report'; report: LegacyImportReport }
  | { type: 'done' };

const { dbFile, jobs, cutoff } = workerData as { dbFile: string; jobs: ImportJob[]; cutoff: number };
const port = parentPort!;
/**
 * Rows per transaction: a few tens of ms of write lock. The service's poll never waits for it
 * (index.ts): it is stored while this worker reads its next rows, with the lock free.
 */
const BATCH = 4096;
/**
 * This worker folds the WAL back every CHECKPOINT_PAGES (32 MB) and once at the end, not every
 * 1,000 pages (a week of rows is 20 checkpoints' fsyncs less); the service's connection does not
 * checkpoint meanwhile (index.ts).
 */
const CHECKPOINT_PAGES = 8192;
const send = (m: ImportMessage) => port.postMessage(m);

/** What was read of a file: rows (readable), of them those new, unreadable entries, the damage that stopped the read. */
interface Counts {
  rows: number;
  imported: number;
  unreadable: number;
  damage: string | null;
}

/**
 * Writes the samples of `pages` at or after the cutoff, BATCH per transaction, posting progress
 * against `total()` and counting into `counts`; holds them back until one carries a power value
 * (none: refused, nothing in).
 */
function write(store: DurableStore, file: string, pages: Iterable<HistorySample[]>, counts: Counts, total: () => number): void {
  const batch: HistorySample[] = [];
  let power = false;
  let done = 0;
  const flush = (all: boolean) => {
    while (batch.length >= (all ? 1 : BATCH)) {
      const part = batch.splice(0, BATCH);
      counts.imported += store.insertMany(part);
      done += part.length;
      send({ type: 'progress', file, done, total: Math.max(total(), done) });
    }
  };
  for (const page of pages) {
    counts.rows += page.length;
    for (const s of page) {
      if (s.t >= cutoff) batch.push(s);
    }
    power ||= page.some(hasPower);
    if (power) flush(false);
  }
  if (!power) {
    const refused = noPowerMessage(counts.rows);
    throw new Error(counts.damage ? `${refused} (${counts.damage})` : refused);
  }
  flush(true);
}

const newCounts = (): Counts => ({ rows: 0, imported: 0, unreadable: 0, damage: null });
const report = (file: string, { rows, imported, unreadable, damage }: Counts): LegacyImportReport =>
  damage ? { file, status: 'partial', imported, skipped: rows - imported, unreadable, error: damage } : { file, status: 'imported', imported, skipped: rows - imported };

/** Our own legacy JSON file as pages of samples; throws on its first bad entry, naming it. */
function* legacyPages(file: string): Generator<HistorySample[]> {
  try {
    for (const batch of readJsonArray(file)) {
      if (batch.bad.length) throw new Error(`entry ${batch.bad[0]!.index}: not valid JSON (${batch.bad[0]!.message})`);
      yield batch.items.map((item, k) => legacySample(item, batch.first + k));
    }
  } catch (err) {
    if (!(err instanceof JsonArrayError)) throw err;
    if (!err.message.startsWith('expected')) throw new Error(err.message);
    // Not an array: a small file is parsed whole to say whether it is JSON in the first place.
    if (fs.statSync(file).size <= 1 << 20)
      try {
        JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        throw new Error(jsonFailure(e));
      }
    throw new Error('expected a JSON array of samples');
  }
}

function importLegacyJson(store: DurableStore, file: string): LegacyImportReport {
  // The first read checks every entry and counts; only a file read to its end is inserted.
  let inRetention = 0;
  for (const page of legacyPages(file)) for (const s of page) if (s.t >= cutoff) inRetention++;
  const counts = newCounts();
  write(store, file, legacyPages(file), counts, () => inRetention);
  return report(file, counts);
}

/** sigen-home-bridge's history.json as pages of its readable rows; entries that are not are counted. */
function* sigenJsonPages(file: string, counts: Counts, read: { bytes: number }): Generator<HistorySample[]> {
  for (const batch of readJsonArray(file)) {
    read.bytes = batch.end;
    const page: HistorySample[] = [];
    batch.items.forEach((item, k) => {
      const s = typeof item === 'object' && item !== null && !Array.isArray(item) && !batch.bad.some((b) => b.index === batch.first + k) ? fromSigenRow(item as Record<string, unknown>) : null;
      if (s) page.push(s);
      else counts.unreadable++;
    });
    yield page;
  }
  if (counts.unreadable) counts.damage = `${counts.unreadable} entries are not readable rows`;
}

function importSigenJson(store: DurableStore, file: string): LegacyImportReport {
  const counts = newCounts();
  const read = { bytes: 0 };
  const size = fs.statSync(file).size;
  // Rows to come, estimated from the part of the file read so far.
  const total = () => (read.bytes ? Math.round((counts.rows * size) / read.bytes) : 0);
  try {
    write(store, file, sigenJsonPages(file, counts, read), counts, total);
    return report(file, counts);
  } catch (err) {
    if (!(err instanceof JsonArrayError)) throw err;
  }
  // Its structure is damaged: read whole, salvaging the rows on both sides (those already in are skipped).
  const got: SourceRead = readSigenJson(fs.readFileSync(file, 'utf8'));
  const salvaged: Counts = { rows: 0, imported: counts.imported, unreadable: got.unreadable, damage: got.damage };
  write(store, file, [got.samples], salvaged, () => got.samples.length);
  return report(file, salvaged);
}

/** sigen-home-bridge's history.db, from a temporary copy, a page at a time (sigenDbPages: a damaged one salvaged). */
function importSigenDb(store: DurableStore, file: string): LegacyImportReport {
  const got: SourceRead = { samples: [], unreadable: 0, withoutPower: 0, damage: null };
  let total = 0;
  const counts = newCounts();
  const pages = (function* () {
    yield* sigenDbPages(file, got, (n) => (total = n));
    counts.unreadable = got.unreadable;
    counts.damage = got.damage;
  })();
  write(store, file, pages, counts, () => total);
  return report(file, counts);
}

const store = new DurableStore(dbFile);
store.db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
try {
  const seen = new Set<string>();
  for (const { file, format } of jobs) {
    if (seen.has(file) || !fs.existsSync(file)) continue;
    seen.add(file);
    // Only a regular file within the cap (never a device or FIFO that would not end).
    const problem = importFileProblem(file, { maxBytes: IMPORT_CAPS.database });
    if (problem) {
      send({ type: 'report', report: { file, status: 'failed', error: `${path.basename(file)} ${problem}` } });
      continue;
    }
    try {
      const r = format === 'sigen-db' ? importSigenDb(store, file) : format === 'sigen-json' ? importSigenJson(store, file) : importLegacyJson(store, file);
      if (format === 'legacy-json') fs.renameSync(file, `${file}.imported`);
      send({ type: 'report', report: r });
    } catch (err) {
      send({ type: 'report', report: { file, status: 'failed', error: plainReason(err) } });
    }
  }
} finally {
  // What is left in the WAL, without waiting for readers (a later commit folds back the rest).
  store.db.pragma('wal_checkpoint(PASSIVE)');
  store.close();
  send({ type: 'done' });
}
