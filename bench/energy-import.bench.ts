/**
 * Importing a large sigen-home-bridge history into a running bridge that polls a gateway simulator
 * at 1 s: 604,800 rows (a week of 1 s samples) in its `history.db`, through POST /api/import, in a
 * fresh service each round (medians of ROUNDS). Figures: the import's duration (target 3 s) and
 * the CPU time the process used for it (all threads: wall time on a shared machine is mostly the
 * queue for a core); the process's peak RSS over the import against its RSS before (target: peak
 * under 300 MB); the service thread's event-loop delay (p99, and the longest stall of all rounds)
 * during the import against the same measure over a window before it; and how many polls landed
 * while the import ran against how many the interval asks for. Same-run baseline: `sqlite3` copying
 * the same rows into an empty history in one transaction (ATTACH, INSERT … SELECT, the minute
 * rollup by one GROUP BY): the floor for the import's SQL, without its small transactions.
 * Then the same rows as sigen-home-bridge's legacy history.json and as our own legacy JSON file,
 * each imported by a history of its own, against reading the file whole (readFileSync + JSON.parse).
 * Run: `node --import tsx bench/energy-import.bench.ts` (or `npm run bench energy-import`).
 */
import { spawnSync } from 'node:child_process';
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
import { DurableStore, REBUILD_HOURS_SQL, REBUILD_MINUTES_SQL } from '../main/energy/history/durable-store.js';
import { figure, median, round } from './report.js';

const ROWS = 604_800;
const ROUNDS = 3;
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

// The same-run baseline: sqlite3 copies the rows into an empty history (our schema) in one transaction.
const cpuOf = (stderr: string) => stderr.trim().split('\n').at(-1)!.split(' ').reduce((a, b) => a + Number(b), 0);
const floor: Array<{ wall: number; cpu: number }> = [];
for (let r = 0; r < ROUNDS; r++) {
  const file = path.join(work, `floor-${r}.db`);
  new DurableStore(file).close();
  const sql = `ATTACH '${path.join(src, 'history.db')}' AS old; BEGIN;
    INSERT OR IGNORE INTO samples (t, solar, grid, battery, soc, home, outdoorTemp) SELECT t, pvPower, gridPower, batteryPower, batterySoc, loadPower, outdoorTemp FROM old.samples;
    ${[REBUILD_MINUTES_SQL, REBUILD_HOURS_SQL].map((q) => q.replaceAll('@lo', '0').replaceAll('@hi', String(now + 3_600_000))).join(';\n')}; COMMIT;`;
  const t = performance.now();
  const res = spawnSync('/usr/bin/time', ['-f', '%U %S', '/usr/bin/sqlite3', file, sql], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`sqlite3 failed: ${res.stderr}`);
  floor.push({ wall: performance.now() - t, cpu: cpuOf(res.stderr) * 1000 });
  fs.rmSync(file, { force: true });
}

const sim = await startGatewaySimulator({ firmware: 'V2.9' });
type Status = { state: string; result: { historyReports: Array<{ imported?: number }> } };
type Round = { ms: number; cpu: number; rssBefore: number; rssPeak: number; baseP99: number; baseMax: number; p99: number; max: number; pollsRatio: number; postMs: number };
const rounds: Round[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const dataDir = path.join(work, `bridge-${r}`);
  const service = createEnergyService({ dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000' } }, { logger: silentLogger });
  await service.start();
  const call = async (method: string, url: string, body?: unknown) => (await fetch(`${service.url}${url}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined })).json() as Promise<Status>;
  while (!service.state.get().connected) await new Promise((res) => setTimeout(res, 100));

  const polls: number[] = [];
  const unsubscribe = service.state.subscribe((s) => {
    if (s.lastUpdated !== null && polls.at(-1) !== s.lastUpdated) polls.push(s.lastUpdated);
  });

  // Baseline window: the same service, polling, no import.
  const base = monitorEventLoopDelay({ resolution: 10 });
  base.enable();
  await new Promise((res) => setTimeout(res, 4000));
  base.disable();

  const during = monitorEventLoopDelay({ resolution: 10 });
  const pollsBefore = polls.length;
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const rssSampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  during.enable();
  await call('POST', '/api/import', { from: 'sigen-home-bridge', dir: src });
  const postMs = performance.now() - t0;
  // The importer's own settings change (the gateway above) would reconnect: keep this simulator.
  service.settings.replace({ ...service.settings.get(), gateway: { ...service.settings.get().gateway, host: '127.0.0.1', port: sim.port } });
  let status = await call('GET', '/api/import/status');
  while (status.state === 'running') {
    await new Promise((res) => setTimeout(res, 50));
    status = await call('GET', '/api/import/status');
  }
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  clearInterval(rssSampler);
  during.disable();
  unsubscribe();
  if (status.state !== 'done' || status.result.historyReports[0]?.imported !== ROWS) {
    console.error('import did not bring every row', JSON.stringify(status));
    process.exitCode = 1;
  }
  const round_: Round = {
    ms,
    cpu: (used.user + used.system) / 1000,
    rssBefore,
    rssPeak,
    baseP99: base.percentile(99) / 1e6,
    baseMax: base.max / 1e6,
    p99: during.percentile(99) / 1e6,
    max: during.max / 1e6,
    pollsRatio: (polls.length - pollsBefore) / Math.max(1, Math.floor(ms / 1000)),
    postMs,
  };
  rounds.push(round_);
  console.log(`round ${r + 1}: ${round(ms)} ms, CPU ${round(round_.cpu)} ms, POST answered in ${round(postMs)} ms, peak RSS ${round(rssPeak / 1e6)} MB (before ${round(rssBefore / 1e6)} MB), loop delay p99 ${round(round_.p99)} ms, max ${round(round_.max)} ms`);
  await service.stop();
}
await sim.close();
const med = (f: (r: Round) => number) => median(rounds.map(f));

console.log(`imported ${ROWS} rows (${round(fs.statSync(path.join(src, 'history.db')).size / 1e6)} MB) while polling at 1 s, ${ROUNDS} rounds`);
figure('import of 604,800 rows, POST to done (median)', med((r) => r.ms) / 1000, 's', { max: 3 });
figure('baseline: sqlite3 copying the same rows into an empty history, one transaction (median)', median(floor.map((f) => f.wall)) / 1000, 's');
figure('CPU time of the process during the import, all threads (median)', med((r) => r.cpu) / 1000, 's');
figure('baseline: CPU time of that sqlite3 copy (median)', median(floor.map((f) => f.cpu)) / 1000, 's');
figure('peak RSS of the service process during the import (median)', med((r) => r.rssPeak) / 1e6, 'MB', { max: 300 });
figure('baseline: RSS of the same process before the import (median)', med((r) => r.rssBefore) / 1e6, 'MB');
figure('import rate (median)', ROWS / (med((r) => r.ms) / 1000), 'rows/s', { min: 10_000 });
figure('event-loop delay p99, no import (baseline, median)', med((r) => r.baseP99), 'ms');
figure('event-loop delay p99 during the import (median)', med((r) => r.p99), 'ms', { max: Math.max(50, med((r) => r.baseP99) * 3) });
figure('longest event-loop stall during the import (worst round)', Math.max(...rounds.map((r) => r.max)), 'ms', { max: 250 });
figure('baseline: longest event-loop stall in the window before, no import (worst round)', Math.max(...rounds.map((r) => r.baseMax)), 'ms');
figure('polls during the import per poll interval (median)', med((r) => r.pollsRatio), 'ratio', { min: 0.8 });

// The same rows as JSON arrays, imported by a history of its own: sigen-home-bridge's
// history.json (parsed on a thread of its own while its rows go in), then our own legacy format
// (checked whole into a stage file first, then inserted). Baseline in the same run: what reading
// the file whole costs (readFileSync + JSON.parse).
{
  const writeJson = (file: string, row: (r: Record<string, number | null>) => object) => {
    const srcDb = new Database(path.join(src, 'history.db'), { readonly: true });
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, '[');
    let first = true;
    for (const r of srcDb.prepare('SELECT * FROM samples ORDER BY t').iterate() as Iterable<Record<string, number | null>>) {
      fs.writeSync(fd, (first ? '' : ',') + JSON.stringify(row(r)));
      first = false;
    }
    fs.writeSync(fd, ']');
    fs.closeSync(fd);
    srcDb.close();
  };
  const sigenFile = path.join(work, 'history.json');
  writeJson(sigenFile, (r) => r);
  const ourFile = path.join(work, 'our-history.json');
  writeJson(ourFile, (r) => ({ t: r.t, solar: r.pvPower, home: r.loadPower, grid: r.gridPower, battery: r.batteryPower, soc: r.batterySoc, outdoorTemp: r.outdoorTemp }));

  const importRounds = async (format: 'sigen-json' | 'legacy-json', source: string) => {
    const imports: Array<{ ms: number; cpu: number; growth: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Our own file is renamed `.imported` once imported: each round reads a copy.
      const file = format === 'legacy-json' ? path.join(work, `legacy-${r}.json`) : source;
      if (file !== source) fs.copyFileSync(source, file);
      const history = createHistory({ dataDir: path.join(work, `${format}-import-${r}`), clock: systemClock, logger: silentLogger, retentionMs: () => 30 * 86_400_000 });
      history.start();
      (globalThis as { gc?: () => void }).gc?.();
      const rss1 = process.memoryUsage().rss;
      let peak1 = rss1;
      const sampler1 = setInterval(() => (peak1 = Math.max(peak1, process.memoryUsage().rss)), 20);
      const cpu0 = process.cpuUsage();
      const t1 = performance.now();
      const [report] = await history.importFiles([{ file, format }]);
      const importMs = performance.now() - t1;
      const used = process.cpuUsage(cpu0);
      clearInterval(sampler1);
      history.stop();
      if (report?.imported !== ROWS) {
        console.error(`${format} import did not bring every row`, JSON.stringify(report));
        process.exitCode = 1;
      }
      imports.push({ ms: importMs, cpu: (used.user + used.system) / 1000, growth: peak1 - rss1 });
      console.log(`${format} round ${r + 1}: ${round(importMs)} ms, CPU ${round(imports.at(-1)!.cpu)} ms`);
    }
    return imports;
  };
  const sigenImports = await importRounds('sigen-json', sigenFile);
  const ourImports = await importRounds('legacy-json', ourFile);

  const wholes: Array<{ ms: number; cpu: number; heap: number }> = [];
  // After every import round (the parsed array would stay in the RSS the imports are measured by).
  for (let r = 0; r < ROUNDS; r++) {
    // What the whole parse holds: the heap in use while its result is alive (the text counted too).
    (globalThis as { gc?: () => void }).gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const c = process.cpuUsage();
    const t = performance.now();
    const text = fs.readFileSync(sigenFile, 'utf8');
    const parsed = JSON.parse(text) as unknown[];
    const wholeMs = performance.now() - t;
    const cw = process.cpuUsage(c);
    wholes.push({ ms: wholeMs, cpu: (cw.user + cw.system) / 1000, heap: process.memoryUsage().heapUsed - heap0 });
    if (parsed.length !== ROWS) throw new Error('the JSON file does not hold every row');
  }

  console.log(`\n# ${ROWS} rows as a ${round(fs.statSync(sigenFile).size / 1e6)} MB history.json, ${ROUNDS} rounds`);
  figure("sigen-home-bridge's history.json, 604,800 rows (parsed on a thread of its own while inserted; median)", median(sigenImports.map((i) => i.ms)) / 1000, 's', { max: 3 });
  figure('CPU time of the process during that import, all threads (median)', median(sigenImports.map((i) => i.cpu)) / 1000, 's');
  figure('RSS growth of the process during that import (median)', median(sigenImports.map((i) => i.growth)) / 1e6, 'MB');
  figure('our own legacy history.json, the same rows (checked whole into a stage file, then inserted; median)', median(ourImports.map((i) => i.ms)) / 1000, 's', { max: 3 });
  figure('CPU time of the process during that import, all threads (median)', median(ourImports.map((i) => i.cpu)) / 1000, 's');
  figure('RSS growth of the process during that import (median)', median(ourImports.map((i) => i.growth)) / 1e6, 'MB');
  figure('baseline: reading the sigen-home-bridge file whole (readFileSync + JSON.parse) alone (median)', median(wholes.map((w) => w.ms)) / 1000, 's');
  figure('baseline: CPU time of reading it whole (median)', median(wholes.map((w) => w.cpu)) / 1000, 's');
  figure('baseline: heap held by the text and its parsed rows when read whole (median)', median(wholes.map((w) => w.heap)) / 1e6, 'MB');
}
fs.rmSync(work, { recursive: true, force: true });
