/**
 * Imports legacy history files on a thread of its own (started after the HTTP port opens), with its
 * own SQLite connection: parse and validate a whole file first (a malformed file is never
 * half-imported), then insert in small transactions so the poller's own inserts never wait long
 * for the write lock. Posts progress after each chunk. A crash mid-file leaves the file in place;
 * the next start imports it again (rows already stored are skipped: same `t`).
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { DurableStore } from './durable-store.js';
import { parseLegacyHistory, type LegacyImportReport } from './legacy-import.js';

export type ImportMessage =
  | { type: 'progress'; file: string; done: number; total: number }
  | { type: 'report'; report: LegacyImportReport }
  | { type: 'done' };

const { dbFile, files, cutoff } = workerData as { dbFile: string; files: string[]; cutoff: number };
const port = parentPort!;
const CHUNK = 1000;
const send = (m: ImportMessage) => port.postMessage(m);
const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

const store = new DurableStore(dbFile);
try {
  for (const file of [...new Set(files)]) {
    if (!fs.existsSync(file)) continue;
    try {
      const samples = parseLegacyHistory(fs.readFileSync(file, 'utf8'));
      const kept = samples.filter((s) => s.t >= cutoff);
      let imported = 0;
      for (let i = 0; i < kept.length; i += CHUNK) {
        imported += store.insertMany(kept.slice(i, i + CHUNK));
        send({ type: 'progress', file, done: Math.min(kept.length, i + CHUNK), total: kept.length });
        await pause();
      }
      fs.renameSync(file, `${file}.imported`);
      send({ type: 'report', report: { file, status: 'imported', imported, skipped: samples.length - imported } });
    } catch (err) {
      send({ type: 'report', report: { file, status: 'failed', error: (err as Error).message } });
    }
  }
} finally {
  store.close();
  send({ type: 'done' });
}
