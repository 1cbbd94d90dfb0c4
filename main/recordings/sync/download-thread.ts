import fs from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { systemClock, type Clock, type Timer } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { startWorker } from '../../core/worker.js';
import { downloadToPartial, type DownloadRequest, type DownloadResult } from './download.js';
import { defaultMediaGet, type MediaGet } from './media-get.js';

/** One download as the sync asks for it: where from, where to, and how it is watched. */
export type DownloadJob = Omit<DownloadRequest, 'get' | 'clock'>;

/** Runs one download attempt (on the download thread by default; in-process with an injected client). */
export type Downloader = (job: DownloadJob) => Promise<DownloadResult>;

/** What crosses to the thread: the job's plain fields (its signal and tick callback stay here). */
type JobFields = Omit<DownloadJob, 'signal' | 'onTick'>;

export type ToDownloadThread = { op: 'start'; id: number; job: JobFields } | { op: 'abort'; id: number; reason: string };
export type FromDownloadThread =
  | { op: 'ready' }
  | { op: 'tick'; id: number; bytes: number; total: number | null }
  | { op: 'done'; id: number; result: DownloadResult }
  | { op: 'failed'; id: number; error: string };

/** Downloads in this thread through `get` (tests that inject a media client or a clock). */
export const inProcessDownloader =
  (get: MediaGet, clock: Clock): Downloader =>
  (job) =>
    downloadToPartial({ ...job, get, clock });

export interface ThreadDownloader {
  download: Downloader;
  /** Stops the thread (after the sync has stopped; a download still running ends as interrupted). */
  close(): Promise<void>;
}

const sizeOf = (file: string) => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

interface Pending {
  job: DownloadJob;
  resolve(r: DownloadResult): void;
  resumedFrom: number;
}

/**
 * Starts the download thread with bounded V8 heaps. The thread's JavaScript barely allocates (~125 KB
 * of garbage a download), so with V8's default limits its old generation was never collected: in
 * the two-hour soak its heap rose 14.5 -> 22 MB (+4 MB/h), all garbage (after 60 downloads a forced
 * collection took it back to where it started). A 16 MB old generation makes V8 collect it every few dozen downloads (and a 4 MB young one
 * keeps its new space small); it keeps ~10-11 MB alive (under tsx). Were it ever out of memory, its
 * downloads would end as interrupted and the next sync resumes them (below).
 */
export const startDownloadWorker = (): Worker =>
  startWorker('download-worker', import.meta.url, null, { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 });

/** The download thread ends this long after its last download (its ~28 MB of RSS go with it). */
export const DOWNLOAD_THREAD_IDLE_MS = 5 * 60_000;

/**
 * Downloads on one thread of their own (download-worker.ts), started on first use. The thread
 * keeps the process alive only while a download runs, and ends DOWNLOAD_THREAD_IDLE_MS after the
 * last one (on `clock`): between syncs a home install holds no download thread. A thread that dies
 * ends its downloads as interrupted, keeping their bytes (the next sync resumes), and the next
 * download starts a new one.
 * A thread that cannot start at all (it never says it is ready) leaves downloads to this thread,
 * with a warning: slower to react while a transfer runs, but nothing stops syncing.
 */
export function createThreadDownloader(
  logger: Logger,
  opts: { start?: () => Worker; fallback?: Downloader; clock?: Clock } = {},
): ThreadDownloader {
  const clock = opts.clock ?? systemClock;
  const start = opts.start ?? startDownloadWorker;
  const fallback = opts.fallback ?? inProcessDownloader(defaultMediaGet, systemClock);
  let worker: Worker | null = null;
  let ready = false;
  let unavailable = false;
  let nextId = 1;
  const jobs = new Map<number, Pending>();
  let idle: Timer | null = null;
  const stopIdle = () => {
    if (idle) clock.clear(idle);
    idle = null;
  };
  // Called with no download running: the thread ends unless one starts within the idle time.
  const endWhenIdle = () => {
    stopIdle();
    idle = clock.setTimeout(() => {
      idle = null;
      const w = worker;
      if (!w || jobs.size) return; // a download started since: its end sets the timer again
      worker = null; // its exit is then no loss; the next download starts a new thread
      void w.terminate();
    }, DOWNLOAD_THREAD_IDLE_MS);
    idle.unref?.();
  };

  const finish = (id: number, result: DownloadResult) => {
    const entry = jobs.get(id);
    if (!entry) return;
    jobs.delete(id);
    if (jobs.size === 0) {
      worker?.unref();
      if (worker) endWhenIdle();
    }
    entry.resolve(result);
  };

  const lost = (w: Worker, why: string) => {
    if (worker !== w) return;
    worker = null;
    if (!ready) {
      unavailable = true;
      logger.warn({ error: why }, 'the download thread cannot start: downloading on the main thread');
      for (const [id, { job }] of jobs) void fallback(job).then((r) => finish(id, r));
      return;
    }
    if (jobs.size) logger.warn({ error: why, downloads: jobs.size }, 'download thread stopped');
    for (const [id, { job, resumedFrom }] of jobs) {
      const size = sizeOf(job.partialPath);
      const error = `transfer interrupted: the download thread stopped (${why}); the next sync resumes`;
      finish(id, size > resumedFrom
        ? { recorded: true, actualSize: size, announcedSize: null, error, resumedFrom, restarted: false }
        : { recorded: false, actualSize: null, announcedSize: null, error, resumedFrom, restarted: false });
    }
  };

  const ensure = (): Worker => {
    if (worker) return worker;
    const w = start();
    ready = false;
    w.on('message', (m: FromDownloadThread) => {
      if (m.op === 'ready') ready = true;
      else if (m.op === 'tick') jobs.get(m.id)?.job.onTick?.(m.bytes, m.total);
      else if (m.op === 'done') finish(m.id, m.result);
      else {
        const entry = jobs.get(m.id);
        if (entry) finish(m.id, { recorded: false, actualSize: null, announcedSize: null, error: m.error, resumedFrom: entry.resumedFrom, restarted: false });
      }
    });
    w.on('error', (err) => lost(w, err.message));
    w.on('exit', (code) => lost(w, `exit ${code}`));
    worker = w;
    return w;
  };

  return {
    download(job) {
      if (unavailable) return fallback(job);
      return new Promise<DownloadResult>((resolve) => {
        const { signal, onTick: _onTick, ...fields } = job;
        const id = nextId++;
        const w = ensure();
        const onAbort = () => {
          const reason: unknown = signal.reason;
          w.postMessage({ op: 'abort', id, reason: reason instanceof Error ? reason.message : String(reason ?? 'aborted') } satisfies ToDownloadThread);
        };
        jobs.set(id, {
          job,
          resumedFrom: sizeOf(job.partialPath),
          resolve(r) {
            signal.removeEventListener('abort', onAbort);
            resolve(r);
          },
        });
        w.ref();
        w.postMessage({ op: 'start', id, job: fields } satisfies ToDownloadThread);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    async close() {
      stopIdle();
      const w = worker;
      if (!w) return;
      ready = true; // a stop is not a thread that cannot start
      lost(w, 'the service stopped');
      await w.terminate();
    },
  };
}
