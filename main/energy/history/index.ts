import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { Clock, Timer } from '../../core/clock.js';
import { isStorageFull } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { HistoryStats } from '../live/snapshot.js';
import { MAX_ROWS } from './downsample.js';
import { DurableStore } from './durable-store.js';
import { exportFileName, type ExportFormat } from './export.js';
import type { ImportJob, ImportMessage } from './import-worker.js';
import type { LegacyImportReport } from './legacy-import.js';
import { MemoryWindow } from './memory-window.js';
import { queryHistory, type HistoryQuery, type HistoryResult } from './query.js';
import { startWorker } from '../../core/worker.js';
import { yieldToIo } from '../../core/lifecycle.js';
import { HistoryReader } from './reader.js';
import type { HistorySample } from './sample.js';

export { sampleFromState, type HistorySample } from './sample.js';
export type { ImportJob } from './import-worker.js';

/** The durable copy is pruned to the retention window on this timer (spec: every 5 minutes). */
export const PRUNE_INTERVAL_MS = 5 * 60_000;

export interface HistoryOptions {
  /** The service's data folder; the database is `<dataDir>/energy/history.db`. */
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /** Current raw retention in ms, read on every poll and query, so a settings change applies live. */
  retentionMs: () => number;
  /** How long the minute tier is kept, in ms (default 400 days; never less than the raw retention). Hours are kept for good. */
  minuteRetentionMs?: () => number;
  /** Legacy history files to import once (default `<dataDir>/energy/history.json`). */
  legacyFiles?: string[];
  /** IANA zone that dates the export file name (default UTC). */
  timeZone?: () => string;
  /** Samples kept in memory (default and spec maximum 20,000). */
  memoryCapacity?: number;
}

/** A history write that failed (a full disk, say): what, why in plain words, since when. */
export interface HistoryWriteError {
  what: 'history write';
  message: string;
  /** Epoch ms of the first failure of this spell. */
  since: number;
  /** Epoch ms of the latest failure. */
  lastAt: number;
}

/** A failing write is logged at most once in this window, not once per poll. */
export const WRITE_ERROR_LOG_EVERY_MS = 60_000;

export interface History {
  start(): void;
  stop(): void;
  /** Records one poll: in memory (trimmed to retention) and as one durable row. */
  append(sample: HistorySample): boolean;
  /** Count and span of everything retained, durable copy included. */
  stats(): HistoryStats;
  /** The failing durable write, while writes fail; null once one succeeds again. */
  writeError(): HistoryWriteError | null;
  query(q: HistoryQuery): HistoryResult;
  /** The same query as JSON text, answered by the reader worker: heavy reads never hold up the poller. */
  queryJson(q: HistoryQuery, pretty: boolean): Promise<{ body: string; widthSeconds?: number }>;
  /** The export, streamed from the history reader worker (off this thread, with backpressure). */
  exportOffThread(format: ExportFormat, every?: number): Readable;
  /** Imports the legacy files once in a worker (call after the port opens); progress in `legacyImports()`. */
  importLegacy(): Promise<LegacyImportReport[]>;
  /**
   * Imports other programs' history files in a worker, keeping samples from `from` (default: the
   * retention cutoff); `onProgress` sees the reports as they change. Importing twice equals once.
   */
  importFiles(jobs: ImportJob[], onProgress?: (reports: LegacyImportReport[]) => void, from?: number): Promise<LegacyImportReport[]>;
  /** `energy-history-<local date>[-every-<n>s].<format>`: the interval is in the name when thinned. */
  exportFileName(format: ExportFormat, every?: number): string;
  /** Deletes durable rows older than the retention window now; returns how many went. */
  prune(): number;
  /** The in-memory window's extent. */
  inMemory(): { count: number; firstT: number | null; lastT: number | null };
  /** Legacy files found at start and what became of them. */
  legacyImports(): LegacyImportReport[];
  /**
   * Builds the tiers of a version-5 database from its samples, an hour per turn of the event loop,
   * newest first, then drops the old tables (a kill resumes it); call after the port opens. Reads
   * meanwhile take the samples. Resolves when done (at once if nothing to do) or stopped.
   */
  upgrade(): Promise<void>;
  readonly file: string;
}

export function createHistory(opts: HistoryOptions): History {
  const { clock, retentionMs } = opts;
  const logger = opts.logger.child({ component: 'history' });
  const file = path.join(opts.dataDir, 'energy', 'history.db');
  const memory = new MemoryWindow(Math.min(opts.memoryCapacity ?? MAX_ROWS, MAX_ROWS));
  let durable: DurableStore | null = null;
  let lastRetention = 0;
  let timer: Timer | null = null;
  let reports: LegacyImportReport[] = [];
  let reader: HistoryReader | null = null;
  let upgrading: Promise<void> | null = null;
  const importers = new Set<Worker>();
  let legacyRunning = false;
  let writeError: HistoryWriteError | null = null;
  let lastErrorLog = -Infinity;
  /**
   * Polls not stored yet. This thread never waits for the write lock (no busy timeout: SQLite's busy
   * handler slept on the event loop, up to 1 s under load, while an import's batch held it): a poll
   * that finds it taken waits here, in order, for the next poll or the import's end.
   */
  const pending: HistorySample[] = [];
  /** Unsaved polls kept (an hour at 1 s): a lock held longer (another program) drops the oldest, said as a write error. */
  const MAX_PENDING = 3600;

  const writeFailed = (err: unknown) => {
    const now = clock.now();
    const full = isStorageFull(err);
    const message = full
      ? 'The disk holding the data folder is full: new history samples are kept in memory only (not saved) until space is freed.'
      : `History samples cannot be saved: ${(err as Error).message ?? String(err)}`;
    writeError = { what: 'history write', message, since: writeError?.since ?? now, lastAt: now };
    if (now - lastErrorLog >= WRITE_ERROR_LOG_EVERY_MS) {
      lastErrorLog = now;
      const e = err as { code?: string; message?: string };
      logger.error({ code: e.code, error: e.message, since: new Date(writeError.since).toISOString() }, full ? 'history not stored on disk: the disk is full' : 'history sample not stored on disk');
    }
  };
  const writeSucceeded = () => {
    if (!writeError) return;
    logger.info({ since: new Date(writeError.since).toISOString() }, 'history is stored on disk again');
    writeError = null;
    lastErrorLog = -Infinity;
  };

  const writePending = () => {
    for (; durable && pending.length; pending.shift()) {
      try {
        durable.insert(pending[0]!);
        writeSucceeded();
      } catch (err) {
        if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return;
        writeFailed(err);
      }
    }
  };

  const cutoff = () => clock.now() - retentionMs();
  const inMemory = () => ({ count: memory.size, firstT: memory.firstT, lastT: memory.lastT });
  const minuteCutoff = () => Math.min(cutoff(), clock.now() - (opts.minuteRetentionMs?.() ?? 400 * 86_400_000));
  const store = (): DurableStore => {
    if (!durable) throw new Error('history not started');
    return durable;
  };

  const prune = (): number => {
    // While an import writes, the next prune deletes these rows (this thread never waits for its lock).
    if (importers.size) return 0;
    const deleted = store().prune({ raw: cutoff(), minute: minuteCutoff() });
    if (deleted) logger.debug({ deleted }, 'history pruned');
    return deleted;
  };

  /** One import worker over `jobs` (samples from `from` on), publishing the reports as they change; several may run at once. */
  const runImport = (jobs: ImportJob[], from: number, publish: (reports: LegacyImportReport[]) => void): Promise<LegacyImportReport[]> => {
    // A 16 MB young generation: V8's default for a worker let its heap grow to twice that and
    // added 40 MB to the peak RSS of a 604,800-row import, for no less CPU.
    const w = startWorker('import-worker', import.meta.url, { dbFile: file, jobs, cutoff: from }, { maxYoungGenerationSizeMb: 16 });
    importers.add(w);
    // The worker checkpoints the WAL itself (import-worker.ts); a poll's commit must not do it meanwhile.
    if (importers.size === 1) durable?.autoCheckpoint(false);
    const byFile = new Map<string, LegacyImportReport>(jobs.map((j) => [j.file, { file: j.file, status: 'running', progress: { done: 0, total: 0 } }]));
    const current = () => [...byFile.values()];
    publish(current());
    return new Promise<LegacyImportReport[]>((resolve) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        if (importers.delete(w) && durable && !importers.size) durable.autoCheckpoint(true);
        // A poll that came in during the last batch is stored before the import counts as done.
        writePending();
        // A file the worker never reported on (missing, or the worker died) is not "running" any more.
        for (const [f, r] of byFile) if (r.status === 'running') byFile.set(f, { file: f, status: 'failed', error: 'not imported (the import stopped before this file)' });
        publish(current());
        resolve(current());
      };
      w.on('message', (m: ImportMessage) => {
        if (m.type === 'progress') {
          byFile.set(m.file, { file: m.file, status: 'running', progress: { done: m.done, total: m.total } });
        } else if (m.type === 'report') {
          byFile.set(m.report.file, m.report);
          if (m.report.status === 'imported') logger.info(m.report, 'history file imported');
          else if (m.report.status === 'partial') logger.warn(m.report, 'history file imported in part; the rest is damaged');
          else logger.error(m.report, 'history file not imported; fix or remove it and restart');
        } else return finish();
        publish(current());
      });
      w.on('error', (err) => {
        logger.error({ err }, 'history import failed');
        for (const [f, r] of byFile) if (r.status === 'running') byFile.set(f, { file: f, status: 'failed', error: err.message });
        publish(current());
      });
      w.on('exit', () => finish());
    });
  };

  return {
    file,
    start() {
      if (durable) return;
      durable = new DurableStore(file);
      durable.db.pragma('busy_timeout = 0');
      reader = new HistoryReader(file, logger);
      reports = [];
      lastRetention = retentionMs();
      prune();
      // Only the newest stored sample (so a poll not newer than it is still skipped); the window
      // fills from the polls, and reads take anything older from the durable copy. Loading the
      // whole window read 20,000 rows (~30 ms and ~4 MB of heap) at every start with history.
      memory.load(durable.recent(cutoff(), Number.MAX_SAFE_INTEGER, 1));
      timer = clock.setInterval(() => {
        try {
          prune();
        } catch (err) {
          logger.error({ err }, 'history prune failed');
        }
      }, PRUNE_INTERVAL_MS);
      timer.unref?.();
    },

    stop() {
      if (timer) clock.clear(timer);
      timer = null;
      // Written if the lock is free; a poll still waiting for an import's batch is lost with it.
      writePending();
      pending.length = 0;
      for (const w of importers) void w.terminate();
      importers.clear();
      void reader?.close();
      reader = null;
      durable?.close();
      durable = null;
    },

    importLegacy() {
      const files = [...new Set(opts.legacyFiles ?? [path.join(opts.dataDir, 'energy', 'history.json')])].filter((f) => fs.existsSync(f));
      if (!durable || !files.length || legacyRunning) return Promise.resolve(reports);
      legacyRunning = true;
      return runImport(
        files.map((file) => ({ file, format: 'legacy-json' as const })),
        cutoff(),
        (r) => (reports = r),
      ).finally(() => (legacyRunning = false));
    },

    importFiles(jobs, onProgress, at = cutoff()) {
      if (!durable) return Promise.reject(new Error('history not started'));
      return runImport(jobs, at, onProgress ?? (() => undefined));
    },

    append(sample) {
      if (!durable) return false;
      const retention = retentionMs();
      const shrunk = retention < lastRetention;
      lastRetention = retention;
      if (!memory.push(sample)) {
        logger.warn({ t: sample.t, lastT: memory.lastT }, 'history sample not newer than the last one; skipped');
        return false;
      }
      memory.trimBefore(cutoff());
      pending.push(sample);
      writePending();
      if (pending.length > MAX_PENDING) {
        pending.shift();
        writeFailed(new Error('the history database has been locked by another connection for over an hour; the oldest unsaved sample was dropped'));
      }
      try {
        if (shrunk) prune();
      } catch (err) {
        logger.error({ err }, 'history prune failed');
      }
      return true;
    },

    writeError: () => writeError,

    stats() {
      if (!durable) return inMemory();
      const c = cutoff();
      // Never a count(*) over the table: a start with a week of samples answers its port at once.
      const count = durable.countFrom(c);
      return count > 0 ? { count, firstT: durable.firstFrom(c), lastT: durable.lastT() } : { count: 0, firstT: null, lastT: null };
    },

    query(q) {
      return queryHistory({ memory, durable: store(), cutoff: cutoff(), minuteCutoff: minuteCutoff() }, q);
    },

    queryJson(q, pretty) {
      if (!reader) return Promise.reject(new Error('history not started'));
      return reader.query(q, cutoff(), minuteCutoff(), pretty);
    },

    exportOffThread(format, every) {
      if (!reader) throw new Error('history not started');
      return reader.exportStream(format, every, cutoff());
    },

    exportFileName(format, every) {
      return exportFileName(clock.now(), opts.timeZone?.() ?? 'UTC', format, every);
    },

    prune,

    inMemory,

    legacyImports: () => reports,

    upgrade() {
      upgrading ??= (async () => {
        try {
          const from = durable?.tiersFrom();
          if (from === undefined || from === Number.MIN_SAFE_INTEGER) return;
          logger.info({ below: new Date(from).toISOString() }, 'history upgrade: building the minute and hour tiers from the samples');
          // Paused while an import writes (this connection would wait for its lock on this thread).
          for (;;) {
            if (importers.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
            else if (durable?.upgradeStep()) await yieldToIo();
            else break;
          }
          if (durable) logger.info('history upgrade done: old block and sample pages dropped');
        } catch (err) {
          logger.error({ err }, 'history upgrade stopped; it resumes at the next start');
        } finally {
          upgrading = null;
        }
      })();
      return upgrading;
    },
  };
}
