/**
 * Importing a large sigen-home-bridge history into a running bridge that polls a gateway simulator
 * at 1 s: 604,800 rows (a week of 1 s samples) in its `history.db`, through POST /api/import.
 * Figures: the import's duration (target 3 s) and rows per second; the process's peak RSS over the
 * import against its RSS before (target: peak under 300 MB); the service thread's event-loop delay (p99,
 * max) during the import against the same measure over an equal window before it (same run); and
 * how many polls landed while the import ran against how many the interval asks for.
 * Run: `node --import tsx bench/energy-import.bench.ts` (or `npm run bench energy-import`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { silentLogger } from '../main/core/logger.js';
import { systemClock } from '../main/core/clock.js';
import { createHistory } from '../main/energy/history/index.js';
import { createEnergyService } from '../main/energy/index.js';
import { startGatewaySimulator } from '../main/energy/simulator/gateway-simulator.js';
import { figure, round } from './report.js';

const ROWS = 604_800;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-import-bench-'));
const src = path.join(work, 'sigen-data');
fs.mkdirSync(src);
const now = Date.now();
{
  const db = new Database(path.join(src, 'history.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE samples (t INTEGER PRIMARY KEY, pvPower REAL, gridPower REAL, batteryPower REAL, batterySoc REAL, loadPower REAL, outdoorTemp REAL)');
  const insert = db.prepare('INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const pv = Math.max(0, Math.round(Math.sin(i / 7000) * 6000));
      const load = 400 + (i % 900);
      const battery = Math.round((pv - load) * 0.6);
      insert.run(now - (ROWS - i) * 1000, pv, pv - load - battery, battery, 20 + (i % 8000) / 100, load, 12.5);
    }
  })();
  db.close();
}
fs.writeFileSync(path.join(src, 'settings.json'), JSON.stringify({ sigen: { host: '127.0.0.1', port: 502, unitId: 247 }, history: { retentionDays: 30 } }));

const sim = await startGatewaySimulator({ firmware: 'V2.9' });
const dataDir = path.join(work, 'bridge');
const service = createEnergyService({ dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000' } }, { logger: silentLogger });
await service.start();
type Status = { state: string; result: { historyReports: Array<{ imported?: number }> } };
const call = async (method: string, url: string, body?: unknown) => (await fetch(`${service.url}${url}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined })).json() as Promise<Status>;
while (!service.state.get().connected) await new Promise((r) => setTimeout(r, 100));

const polls: number[] = [];
const unsubscribe = service.state.subscribe((s) => {
  if (s.lastUpdated !== null && polls.at(-1) !== s.lastUpdated) polls.push(s.lastUpdated);
});

// Baseline window: the same service, polling, no import.
const windowMs = 6000;
const base = monitorEventLoopDelay({ resolution: 10 });
base.enable();
await new Promise((r) => setTimeout(r, windowMs));
base.disable();

const during = monitorEventLoopDelay({ resolution: 10 });
const pollsBefore = polls.length;
const t0 = performance.now();
during.enable();
// The importer's own settings change (the gateway above) would reconnect: keep this simulator.
const tPost = performance.now();
await call('POST', '/api/import', { from: 'sigen-home-bridge', dir: src });
const postMs = performance.now() - tPost;
const afterPost = monitorEventLoopDelay({ resolution: 10 });
afterPost.enable();
service.settings.replace({ ...service.settings.get(), gateway: { ...service.settings.get().gateway, host: '127.0.0.1', port: sim.port } });
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const rssSampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
let status = await call('GET', '/api/import/status');
while (status.state === 'running') {
  await new Promise((r) => setTimeout(r, 100));
  status = await call('GET', '/api/import/status');
}
clearInterval(rssSampler);
const ms = performance.now() - t0;
during.disable();
afterPost.disable();
console.log(`POST /api/import answered in ${round(postMs)} ms; loop delay after it: p99 ${round(afterPost.percentile(99) / 1e6)} ms, max ${round(afterPost.max / 1e6)} ms`);
const pollsDuring = polls.length - pollsBefore;
unsubscribe();
if (status.state !== 'done' || status.result.historyReports[0]?.imported !== ROWS) {
  console.error('import did not bring every row', JSON.stringify(status).slice(0, 500));
  process.exitCode = 1;
}

console.log(`imported ${ROWS} rows (${round(fs.statSync(path.join(src, 'history.db')).size / 1e6)} MB) while polling at 1 s`);
figure('import of 604,800 rows, POST to done', ms / 1000, 's', { max: 3 });
figure('peak RSS of the service process during the import', rssPeak / 1e6, 'MB', { max: 300 });
figure('baseline: RSS of the same process before the import', rssBefore / 1e6, 'MB');
figure('import rate', ROWS / (ms / 1000), 'rows/s', { min: 10_000 });
figure('event-loop delay p99, no import (baseline)', base.percentile(99) / 1e6, 'ms');
figure('event-loop delay p99 during the import', during.percentile(99) / 1e6, 'ms', { max: Math.max(50, (base.percentile(99) / 1e6) * 3) });
figure('event-loop delay max during the import', during.max / 1e6, 'ms', { max: 250 });
figure('polls during the import per poll interval', pollsDuring / Math.max(1, Math.floor(ms / 1000)), 'ratio', { min: 0.8 });

await service.stop();
await sim.close();

// The same rows as sigen-home-bridge's legacy history.json (a JSON array), imported by a history
// of its own: the file is stream-parsed a MiB at a time (a validating pass, then the inserting
// one). Baseline in the same run: what reading it whole costs (readFileSync + JSON.parse), the way
// it was read before.
{
  const jsonFile = path.join(work, 'history.json');
  const srcDb = new Database(path.join(src, 'history.db'), { readonly: true });
  const fd = fs.openSync(jsonFile, 'w');
  fs.writeSync(fd, '[');
  let first = true;
  for (const row of srcDb.prepare('SELECT * FROM samples ORDER BY t').iterate()) {
    fs.writeSync(fd, (first ? '' : ',') + JSON.stringify(row));
    first = false;
  }
  fs.writeSync(fd, ']');
  fs.closeSync(fd);
  srcDb.close();
  const size = fs.statSync(jsonFile).size;

  const history = createHistory({ dataDir: path.join(work, 'json-import'), clock: systemClock, logger: silentLogger, retentionMs: () => 30 * 86_400_000 });
  history.start();
  (globalThis as { gc?: () => void }).gc?.();
  const rss1 = process.memoryUsage().rss;
  let peak1 = rss1;
  const sampler1 = setInterval(() => (peak1 = Math.max(peak1, process.memoryUsage().rss)), 20);
  const t1 = performance.now();
  const [report] = await history.importFiles([{ file: jsonFile, format: 'sigen-json' }]);
  const importMs = performance.now() - t1;
  clearInterval(sampler1);
  history.stop();
  // What the whole parse holds: the heap in use while its result is alive (the text counted too).
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t = performance.now();
  const text = fs.readFileSync(jsonFile, 'utf8');
  const parsed = JSON.parse(text) as unknown[];
  const wholeMs = performance.now() - t;
  const wholeGrowth = process.memoryUsage().heapUsed - heap0;
  const rows = parsed.length;

  if (report?.imported !== ROWS) console.error('JSON import did not bring every row', JSON.stringify(report));
  console.log(`\n# ${rows} rows as a ${round(size / 1e6)} MB history.json`);
  figure('JSON history file import, 604,800 rows (streamed parse, batched transactions)', importMs / 1000, 's', { max: 3 });
  figure('RSS growth of the process during that import', (peak1 - rss1) / 1e6, 'MB');
  figure('baseline: reading the same file whole (readFileSync + JSON.parse) alone', wholeMs / 1000, 's');
  figure('baseline: heap held by the text and its parsed rows when read whole', wholeGrowth / 1e6, 'MB');
}
fs.rmSync(work, { recursive: true, force: true });
