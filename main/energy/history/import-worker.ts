/**
 * Imports history files on a thread of its own (started after the HTTP port opens, or by an import
 * from another program), with its own SQLite connection. The rows go from the file into the
 * history through import-copy.ts: a database copied by SQLite (import-sql.ts), a JSON file parsed
 * a window of entries at a time (import-json.ts). Inserts run in transactions of about TXN_MS each,
 * so the poller's own inserts never wait long for the write lock; progress is posted after each.
 *
 * - `legacy-json` (LEGACY_HISTORY_FILE, `<data>/energy/history.json`): stream-parsed and checked
 *   into a stage on disk first (a malformed file is never half-imported), inserted into the history
 *   second, renamed `.imported` once done. A crash mid-file leaves the file in place; the next start
 *   imports it again (same `t` skipped).
 * - `sigen-db`, `sigen-json`: sigen-home-bridge's files, read where they are and never changed;
 *   a damaged file gives what can be read and the report says `partial` with what could not
 *   (a damaged database is read row by row, the old way; a JSON file whose structure is damaged
 *   is read whole, to salvage the rows on both sides of the damage). Its JSON file is parsed on a
 *   thread of its own (sigen-json-worker.ts) while the rows already read go in.
 *
 * JSON files are never held whole: they are read 1 MiB at a time, and an element over 64 KiB
 * fails the file (see json-array-stream.ts).
 *
 * A file whose rows carry no power value is never reported `imported`.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import { IMPORT_CAPS, importFileProblem, plainReason } from '../../core/import-file.js';
import { copySigenDb, hasPower, readSigenJson, sigenDbPages, type SourceRead } from '../import/sigen-history.js';
import { DurableStore } from './durable-store.js';
import { Chunker, type OnChunk } from './import-copy.js';
import { JsonDamagedError, legacyJsonStage, sigenJsonRows } from './import-json.js';
import { sigenDbSource } from './import-sql.js';
import type { JsonRowCounts } from './json-rows.js';
import { JsonArrayError } from './json-array-stream.js';
import { noPowerError, parseLegacyHistory, noPowerMessage, type LegacyImportReport } from './legacy-import.js';
import type { HistorySample } from './sample.js';

export type ImportFormat = 'legacy-json' | 'sigen-db' | 'sigen-json';
export interface ImportJob {
  file: string;
  format: ImportFormat;
}

export type ImportMessage =
  | { type: 'progress'; file: string; done: number; total: number; inserted: number }
  | { type: 'report'; report: LegacyImportReport }
  | { type: 'done' };

const { dbFile, jobs, cutoff } = workerData as { dbFile: string; jobs: ImportJob[]; cutoff: number };
const port = parentPort!;
/**
 * Rows per transaction adapt so that each holds the write lock about TXN_MS: short enough that a
 * poll's own insert (on the service thread, which waits for the write lock, its event loop with it)
 * is never held up much longer than that, long enough that 604,800 rows take about a hundred
 * transactions (8 ms made 300 and cost 0.3–0.5 s more).
 */
const TXN_MS = 20;
const MIN_CHUNK = 250;
const MAX_CHUNK = 20_000;
/**
 * The bulk paths' largest chunk: its rows are held in JS while it is copied (about 3 MB at 8,192;
 * 50,000 added 20 MB to the peak RSS and saved nothing measurable).
 */
const MAX_SQL_CHUNK = 8192;
/**
 * The WAL is folded back into the database by this worker, every CHECKPOINT_PAGES (32 MB) and once
 * at the end, rather than by SQLite's default every 1,000 pages: a week of rows is about 22,000
 * pages, and 20 checkpoints, each with its fsyncs, took 0.4–0.6 s of the import's wall time. The
 * service's own connection does not checkpoint meanwhile (index.ts), so no poll copies them.
 */
const CHECKPOINT_PAGES = 8192;
/** A file under this size that is not a JSON array may be read whole, for a better message. */
const SMALL_FILE = 1 << 20;
const send = (m: ImportMessage) => port.postMessage(m);
const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

/** Inserts samples in adaptive transactions as they come, reporting progress against `total`. */
class Inserter {
  imported = 0;
  done = 0;
  private chunk = MIN_CHUNK;
  constructor(
    private readonly store: DurableStore,
    private readonly file: string,
    /** Samples expected (progress only; may be an estimate). */
    public total: number,
  ) {}

  async add(samples: HistorySample[]): Promise<void> {
    for (let i = 0; i < samples.length; ) {
      const t0 = performance.now();
      const part = samples.slice(i, i + this.chunk);
      const inserted = this.store.insertMany(part);
      const ms = performance.now() - t0;
      i += part.length;
      this.done += part.length;
      this.imported += inserted;
      this.chunk = Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.round((this.chunk * TXN_MS) / Math.max(ms, 0.5))));
      send({ type: 'progress', file: this.file, done: this.done, total: Math.max(this.total, this.done), inserted });
      await pause();
    }
  }
}

/** Progress after each transaction: `covered` rows of the source, `total()` expected. */
function progress(file: string, total: () => number): OnChunk {
  let done = 0;
  return async (covered, inserted) => {
    done += covered;
    send({ type: 'progress', file, done, total: Math.max(total(), done), inserted });
    await pause();
  };
}

/** Our own legacy JSON file, streamed into a stage on disk (checked), then inserted into the history. */
async function importLegacyJson(store: DurableStore, file: string): Promise<LegacyImportReport> {
  const stage = legacyJsonStage(store);
  try {
    let counts: JsonRowCounts;
    try {
      counts = await stage.load(file, cutoff);
    } catch (err) {
      if (!(err instanceof JsonArrayError)) throw err;
      // Not an array at all: a small file is parsed whole to say whether it is JSON in the first place.
      if (err.message.startsWith('expected') && fs.statSync(file).size <= SMALL_FILE) parseLegacyHistory(fs.readFileSync(file, 'utf8'));
      throw new Error(err.message.startsWith('expected') ? 'expected a JSON array of samples' : err.message);
    }
    const refused = noPowerMessage(counts.rows, counts.withPower > 0);
    if (refused) throw new Error(refused);
    const imported = await stage.insert(new Chunker(TXN_MS, MIN_CHUNK, MAX_SQL_CHUNK), progress(file, () => counts.inRetention));
    return { file, status: 'imported', imported, skipped: counts.rows - imported };
  } finally {
    stage.drop();
  }
}

/**
 * sigen-home-bridge's history.json, read on a thread of its own while its rows are inserted
 * (sigenJsonRows). A file whose structure is damaged is read whole instead, salvaging the rows on
 * both sides of the damage (those already in are skipped).
 */
async function importSigenJson(store: DurableStore, file: string): Promise<LegacyImportReport> {
  const rows = sigenJsonRows(store, file, cutoff);
  let imported = 0;
  try {
    const first = await rows.start();
    const refused = noPowerMessage(first.rows, first.withPower > 0);
    if (refused) throw new RefusedError(refused);
    // Rows still to come, estimated from the part of the file read so far.
    const size = rows.size();
    const total = () => {
      const c = rows.counts();
      return c.bytes ? Math.round((c.inRetention * size) / c.bytes) : c.inRetention;
    };
    const report = progress(file, total);
    const { counts } = await rows.insert(new Chunker(TXN_MS, MIN_CHUNK, MAX_SQL_CHUNK), (covered, inserted) => {
      imported += inserted;
      return report(covered, inserted);
    });
    const result: LegacyImportReport = { file, status: counts.unreadable ? 'partial' : 'imported', imported, skipped: counts.rows - imported };
    if (counts.unreadable) Object.assign(result, { unreadable: counts.unreadable, error: `${counts.unreadable} entries are not readable rows` });
    return result;
  } catch (err) {
    if (!(err instanceof JsonDamagedError)) throw err;
    return importRead(store, file, readSigenJson(fs.readFileSync(file, 'utf8')), imported);
  } finally {
    rows.close();
  }
}

/**
 * sigen-home-bridge's history.db: checked and copied in SQL from a temporary copy, ATTACHed and
 * only read. A file SQLite cannot read through (damaged) is read row by row instead
 * (importSigenDbRows), which salvages the rows on both sides of the damage.
 */
async function importSigenDb(store: DurableStore, file: string): Promise<LegacyImportReport> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sigen-import-'));
  let imported = 0;
  try {
    const copy = copySigenDb(file, tmp);
    let source: ReturnType<typeof sigenDbSource>;
    try {
      source = sigenDbSource(store, copy);
    } catch {
      source = null;
    }
    if (!source) return await importSigenDbRows(store, file, 0);
    try {
      const check = source.check(cutoff);
      if (!check.anyPower) throw new RefusedError(noPowerMessage(source.readable(), false)!);
      const report = progress(file, () => check.inRetention);
      const counts = await source.insert(cutoff, new Chunker(TXN_MS, MIN_CHUNK, MAX_SQL_CHUNK), (covered, inserted) => {
        imported += inserted;
        return report(covered, inserted);
      });
      return { file, status: 'imported', imported: counts.imported, skipped: counts.rows - counts.imported };
    } catch (err) {
      if (err instanceof RefusedError) throw err;
      // Damaged past what the checks read: the rest row by row (rows already in are skipped).
      return await importSigenDbRows(store, file, imported);
    } finally {
      source.detach();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

class RefusedError extends Error {}

/**
 * sigen-home-bridge's history.db, a page at a time, as JS rows (a damaged file). Samples are held
 * back only until the first one with a power value (a file without any is refused with nothing
 * inserted), then stream. `already`: rows the SQL path inserted before it met the damage.
 */
async function importSigenDbRows(store: DurableStore, file: string, already: number): Promise<LegacyImportReport> {
  const got: SourceRead = { samples: [], unreadable: 0, withoutPower: 0, damage: null };
  const inserter = new Inserter(store, file, 0);
  inserter.imported = already;
  let held: HistorySample[] | null = [];
  let rows = 0;
  for (const page of sigenDbPages(file, got, (count) => (inserter.total = count))) {
    rows += page.length;
    const kept = page.filter((s) => s.t >= cutoff);
    if (held) {
      for (const s of kept) held.push(s);
      if (!page.some(hasPower)) continue;
      const first = held;
      held = null;
      await inserter.add(first);
    } else await inserter.add(kept);
  }
  const refused = held ? noPowerMessage(rows, false) : null;
  if (refused) throw new Error(got.damage ? `${refused} (${got.damage})` : refused);
  const report: LegacyImportReport = { file, status: got.damage ? 'partial' : 'imported', imported: inserter.imported, skipped: rows - inserter.imported };
  if (got.damage) Object.assign(report, { unreadable: got.unreadable, error: got.damage });
  return report;
}

/**
 * Samples already read whole (a sigen-home-bridge JSON file whose structure is damaged).
 * `already`: rows inserted from the same file before the damage was met.
 */
async function importRead(store: DurableStore, file: string, got: SourceRead, already: number): Promise<LegacyImportReport> {
  const refused = noPowerError(got.samples);
  if (refused) throw new Error(got.damage ? `${refused} (${got.damage})` : refused);
  const kept = got.samples.filter((s) => s.t >= cutoff);
  const inserter = new Inserter(store, file, kept.length);
  inserter.imported = already;
  await inserter.add(kept);
  const report: LegacyImportReport = { file, status: got.damage ? 'partial' : 'imported', imported: inserter.imported, skipped: got.samples.length - inserter.imported };
  if (got.damage) Object.assign(report, { unreadable: got.unreadable, error: got.damage });
  return report;
}

const store = new DurableStore(dbFile);
store.db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
try {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.file) || !fs.existsSync(job.file)) continue;
    seen.add(job.file);
    const { file } = job;
    // Only a regular file within the cap (never a device or FIFO that would not end).
    const problem = importFileProblem(file, { maxBytes: IMPORT_CAPS.database });
    if (problem) {
      send({ type: 'report', report: { file, status: 'failed', error: `${path.basename(file)} ${problem}` } });
      continue;
    }
    try {
      const report = job.format === 'sigen-db' ? await importSigenDb(store, file) : job.format === 'sigen-json' ? await importSigenJson(store, file) : await importLegacyJson(store, file);
      if (job.format === 'legacy-json') fs.renameSync(file, `${file}.imported`);
      send({ type: 'report', report });
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
