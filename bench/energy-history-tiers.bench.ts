/**
 * Energy history tiers (issue 40's budget rows) on a week of 1 s samples (604,800 rows) behind a
 * year of minute rows and their hours, built straight in SQL:
 * - the Trends ranges through HTTP, server time (request to last byte from a separate process,
 *   median of 5): 24 h (every=120, raw window), 7 days (every=900, minute tier), 1 year (every=1620
 *   over minutes and every=43200 as the Trends page asks), all (every=86400, hour tier); target 150 ms each;
 * - a start on that folder: until the port answers /api/history/stats (target 0.5 s);
 * - disk for a year of minute rows.
 * Run: `npm run bench -- history-tiers`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createManualClock } from '../main/core/clock.js';
import { createHttpServer, listen } from '../main/core/http.js';
import { silentLogger } from '../main/core/logger.js';
import { DurableStore, REBUILD_HOURS_SQL, REBUILD_MINUTES_SQL } from '../main/energy/history/durable-store.js';
import { createHistory } from '../main/energy/history/index.js';
import { registerHistoryRoutes } from '../main/energy/history/routes.js';
import { SAMPLE_FIELDS } from '../main/energy/history/sample.js';
import { figure, median, round } from './report.js';

const DAY = 86_400_000;
const END = Date.UTC(2026, 0, 1);
const WEEK_FROM = END - 7 * DAY;
const YEAR_FROM = WEEK_FROM - 365 * DAY;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-history-tiers-bench-'));
const file = path.join(dataDir, 'energy', 'history.db');

// --- build: a year of minutes (as the tier holds them), then a week of 1 s samples and their tiers ---
{
  const t0 = performance.now();
  new DurableStore(file).close();
  const db = new Database(file);
  const value = (i: number) => `((x * ${7 + i}) % 5000) - 2500.5`;
  const minuteCols = SAMPLE_FIELDS.flatMap((f) => [`${f}_s`, `${f}_c`, `${f}_lo`, `${f}_hi`]).join(', ');
  const minuteVals = SAMPLE_FIELDS.map((_, i) => `60 * (${value(i)}), 60, ${value(i)} - 100, ${value(i)} + 100`).join(', ');
  const before = fs.statSync(file).size;
  db.exec(`BEGIN; WITH RECURSIVE m(x) AS (SELECT ${YEAR_FROM / 60_000} UNION ALL SELECT x + 1 FROM m WHERE x + 1 < ${WEEK_FROM / 60_000})
    INSERT INTO minute (k, n, ${minuteCols}) SELECT x, 60, ${minuteVals} FROM m; COMMIT;`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const minuteBytes = fs.statSync(file).size - before;
  db.exec(`BEGIN; WITH RECURSIVE s(x) AS (SELECT ${WEEK_FROM / 1000} UNION ALL SELECT x + 1 FROM s WHERE x + 1 < ${END / 1000})
    INSERT INTO samples (t, ${SAMPLE_FIELDS.join(', ')}) SELECT x * 1000, ${SAMPLE_FIELDS.map((_, i) => value(i)).join(', ')} FROM s; COMMIT;`);
  db.prepare(REBUILD_MINUTES_SQL).run({ lo: WEEK_FROM, hi: END });
  db.prepare(REBUILD_HOURS_SQL).run({ lo: YEAR_FROM, hi: END });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  console.log(`built a year of minutes and a week of samples in ${round((performance.now() - t0) / 1000)} s (${round(fs.statSync(file).size / 1e6)} MB)`);
  figure('disk for a year of minute rows (525,600 rows, 10 fields)', minuteBytes / 1e6, 'MB');
}

const clock = createManualClock(END);
const history = createHistory({ dataDir, clock, logger: silentLogger, retentionMs: () => 7 * DAY });
const app = createHttpServer({ logger: silentLogger });
let base = '';

// --- a start on that folder: until the port answers ---
{
  const t0 = performance.now();
  history.start();
  registerHistoryRoutes(app, history);
  base = `http://127.0.0.1:${await listen(app, 0, '127.0.0.1')}`;
  await (await fetch(`${base}/api/history/stats`)).json();
  figure('start with a week of samples and a year of minutes: port answers /api/history/stats', performance.now() - t0, 'ms', { max: 500 });
}

/** GETs `url` `runs` times from a separate process; the median request-to-last-byte time and the rows. */
async function timedGet(url: string, runs: number): Promise<{ ms: number; rows: number; bucket: string | null }> {
  const client = `const out = [];
    for (let i = 0; i < ${runs}; i++) {
      const t = performance.now();
      const res = await fetch(process.argv[1]);
      const text = await res.text();
      out.push({ ms: performance.now() - t, rows: JSON.parse(text).length, bucket: res.headers.get('x-history-bucket-seconds') });
    }
    console.log(JSON.stringify(out));`;
  const text = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', client, base + url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`client exited ${code}`))));
  });
  const results = JSON.parse(text) as Array<{ ms: number; rows: number; bucket: string | null }>;
  return { ms: median(results.slice(1).map((r) => r.ms)), rows: results[0]!.rows, bucket: results[0]!.bucket };
}

const READS = [
  { name: 'Trends 24 h (raw window), every=120', since: END - DAY, every: 120 },
  { name: 'Trends 7 days (minute tier), every=900', since: END - 7 * DAY, every: 900 },
  { name: 'Trends 1 year (minute tier), every=1620', since: END - 365 * DAY, every: 1620 },
  { name: 'Trends 1 year as the page asks (hour tier), every=43200', since: END - 365 * DAY, every: 43_200 },
  { name: 'Trends all (hour tier), every=86400', since: 0, every: 86_400 },
];
for (const r of READS) {
  const got = await timedGet(`/api/history?since=${r.since}&until=${END}&every=${r.every}`, 6);
  console.log(`${r.name}: ${got.rows} rows of ${got.bucket} s`);
  figure(`${r.name}: server time, median of 5 after one`, got.ms, 'ms', { max: 150 });
}

await app.close();
history.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
