/**
 * Imports history files on a thread of its own (started after the HTTP port opens, or by an import
 * from another program), with its own SQLite connection, then inserts in small transactions so the
 * poller's own inserts never wait long for the write lock. Posts progress after each chunk.
 *
 * - `legacy-json` (LEGACY_HISTORY_FILE, `<data>/energy/history.json`): parsed and validated whole
 *   first (a malformed file is never half-imported), renamed `.imported` once done. A crash
 *   mid-file leaves the file in place; the next start imports it again (same `t` skipped).
 * - `sigen-db`, `sigen-json`: sigen-home-bridge's files, read where they are and never changed;
 *   a damaged file gives what can be read and the report says `partial` with what could not.
 *
 * A file whose rows carry no power value is never reported `imported`.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { readSigenDb, readSigenJson, type SourceRead } from '../import/sigen-history.js';
import { DurableStore } from './durable-store.js';
import { noPowerError, parseLegacyHistory, type LegacyImportReport } from './legacy-import.js';

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
 * poll's own insert (on the service thread, which waits for the write lock) never waits long,
 * long enough that 604,800 rows take a few hundred transactions, not thousands. Every few
 * transactions the worker checkpoints the WAL itself, so the service thread's next commit does not
 * find a large WAL to fold back.
 */
const TXN_MS = 8;
const MIN_CHUNK = 250;
const MAX_CHUNK = 20_000;
const send = (m: ImportMessage) => port.postMessage(m);
const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

function read(job: ImportJob): SourceRead {
  if (job.format === 'sigen-db') return readSigenDb(job.file);
  const text = fs.readFileSync(job.file, 'utf8');
  if (job.format === 'sigen-json') return readSigenJson(text);
  return { samples: parseLegacyHistory(text), unreadable: 0, withoutPower: 0, damage: null };
}

const store = new DurableStore(dbFile);
try {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.file) || !fs.existsSync(job.file)) continue;
    seen.add(job.file);
    const { file } = job;
    try {
      const got = read(job);
      const refused = noPowerError(got.samples);
      if (refused) throw new Error(got.damage ? `${refused} (${got.damage})` : refused);
      const kept = got.samples.filter((s) => s.t >= cutoff);
      let imported = 0;
      let chunk = MIN_CHUNK;
      let txns = 0;
      for (let i = 0; i < kept.length; ) {
        const t0 = performance.now();
        const inserted = store.insertMany(kept.slice(i, i + chunk));
        const ms = performance.now() - t0;
        i = Math.min(kept.length, i + chunk);
        imported += inserted;
        chunk = Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.round((chunk * TXN_MS) / Math.max(ms, 0.5))));
        if (++txns % 8 === 0) store.db.pragma('wal_checkpoint(PASSIVE)');
        send({ type: 'progress', file, done: i, total: kept.length, inserted });
        await pause();
      }
      if (job.format === 'legacy-json') fs.renameSync(file, `${file}.imported`);
      const report: LegacyImportReport = { file, status: got.damage ? 'partial' : 'imported', imported, skipped: got.samples.length - imported };
      if (got.damage) Object.assign(report, { unreadable: got.unreadable, error: got.damage });
      send({ type: 'report', report });
    } catch (err) {
      send({ type: 'report', report: { file, status: 'failed', error: (err as Error).message } });
    }
  }
} finally {
  store.close();
  send({ type: 'done' });
}
