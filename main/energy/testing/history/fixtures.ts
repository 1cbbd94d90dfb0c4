import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { createManualClock } from '../../../core/clock.js';
import { createHttpServer } from '../../../core/http.js';
import { silentLogger } from '../../../core/logger.js';
import { DurableStore } from '../../history/durable-store.js';
import { createHistory, type History, type HistoryOptions } from '../../history/index.js';
import { registerHistoryRoutes } from '../../history/routes.js';
import { SAMPLE_FIELDS, type HistorySample } from '../../history/sample.js';

export interface TestResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON of any route; the tests check its shape
  body: any;
  text: string;
  headers: Record<string, unknown>;
}

/** Test support: a history in a temp folder on a manual clock, with its routes on a fastify app. */
export interface TestHistory {
  history: History;
  clock: ReturnType<typeof createManualClock>;
  dataDir: string;
  app: FastifyInstance;
  retention: { ms: number };
  /** Advances the clock to `t` (firing due timers such as the prune) and appends a sample there. */
  appendAt(t: number, sample?: HistorySample): HistorySample;
  /** GET on the routes; returns status, parsed JSON (when JSON) and headers. */
  get(url: string): Promise<TestResponse>;
  /** Stops and starts the history again on the same folder (a service restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

/** A deterministic sample: fractional values, negative grid, nulls in some fields. */
export function makeSample(t: number): HistorySample {
  const i = Math.floor(t / 1000);
  const s = { t } as HistorySample;
  SAMPLE_FIELDS.forEach((f, j) => {
    s[f] = (i + j) % 11 === 0 ? null : Math.round(Math.sin(i / 97 + j) * 500_000) / 100;
  });
  s.soc = (i % 1000) / 10;
  return s;
}

export async function openTestHistory(opts: Partial<Omit<HistoryOptions, 'retentionMs'>> & { retentionMs?: number; start?: number } = {}): Promise<TestHistory> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'energy-history-'));
  const clock = createManualClock(opts.start ?? T0);
  const retention = { ms: opts.retentionMs ?? 7 * DAY };
  const { retentionMs: _r, start: _s, dataDir: _d, ...rest } = opts;
  const make = () => createHistory({ dataDir, clock, logger: silentLogger, ...rest, retentionMs: () => retention.ms });
  const serve = (h: History) => {
    const server = createHttpServer({ logger: silentLogger });
    registerHistoryRoutes(server, h);
    return server;
  };
  let history = make();
  history.start();
  await history.importLegacy();
  let app = serve(history);
  await app.ready();
  return {
    get history() {
      return history;
    },
    get app() {
      return app;
    },
    clock,
    dataDir,
    retention,
    appendAt(t, sample = makeSample(t)) {
      if (t > clock.now()) clock.set(t);
      history.append(sample);
      return sample;
    },
    async get(url) {
      const res = await app.inject(url);
      const type = String(res.headers['content-type'] ?? '');
      return { status: res.statusCode, body: type.startsWith('application/json') ? res.json() : undefined, text: res.body, headers: res.headers };
    },
    async restart() {
      await app.close();
      history.stop();
      history = make();
      history.start();
      await history.importLegacy();
      app = serve(history);
    },
    async close() {
      await app.close();
      history.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Downsampled rows equal: times, counts, min and max exactly; means to 4 decimals (sums may add up in another order). */
export function expectSameBuckets(actual: Array<Record<string, number | null>>, expected: Array<Record<string, number | null>>): void {
  expect(actual.map((r) => r.t)).toEqual(expected.map((r) => r.t));
  actual.forEach((row, i) => {
    const want = expected[i]!;
    expect(Object.keys(row)).toEqual(Object.keys(want));
    for (const [k, v] of Object.entries(want)) {
      if (v === null || !(SAMPLE_FIELDS as readonly string[]).includes(k)) expect(row[k], `${k} of bucket ${row.t}`).toBe(v);
      else expect(Math.abs((row[k] as number) - v), `${k} of bucket ${row.t}`).toBeLessThanOrEqual(1.01e-4);
    }
  });
}

/** Reference downsampling, written independently of the code under test. */
export function referenceBuckets(samples: HistorySample[], widthMs: number) {
  const groups = new Map<number, HistorySample[]>();
  for (const s of samples) {
    const b = Math.floor(s.t / widthMs) * widthMs;
    groups.set(b, [...(groups.get(b) ?? []), s]);
  }
  return [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, group]) => {
      const row: Record<string, number | null> = { t };
      for (const f of SAMPLE_FIELDS) {
        const vals = group.map((s) => s[f]).filter((v): v is number => v !== null);
        row[f] = vals.length ? Math.round((vals.reduce((a, b) => a + b, 0) / vals.length) * 10_000) / 10_000 : null;
        if (f !== 'soc' && f !== 'outdoorTemp') {
          row[`${f}Min`] = vals.length ? Math.min(...vals) : null;
          row[`${f}Max`] = vals.length ? Math.max(...vals) : null;
        }
      }
      row.n = group.length;
      return row;
    });
}

/**
 * Another connection (an import's or the poller's, on another thread) holding the write lock of `file` for `ms`:
 * resolves once it holds it, with a promise of its release.
 */
export async function holdWriteLock(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const w = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const db = new (require(workerData.sqlite))(workerData.file);
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO samples (t) VALUES (1)').run();
    parentPort.postMessage('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
    db.exec('COMMIT');
    db.close();`,
    { eval: true, workerData: { file, ms, sqlite } },
  );
  await new Promise((resolve, reject) => w.once('message', resolve).once('error', reject));
  return { released: new Promise((resolve) => w.once('exit', () => resolve())) };
}

/**
 * Writes `samples` straight into the history's file in one transaction, as an import does, with
 * their minutes and hours: a large history in a fraction of the time of one poll each (appendAt).
 */
export function storeSamples(history: History, samples: HistorySample[]): void {
  const store = new DurableStore(history.file);
  try {
    store.insertMany(samples);
  } finally {
    store.close();
  }
}
