/**
 * Importing a large sigen-home-bridge history: 604,800 rows (a week of 1 s samples), issue 40's
 * budgets: each format imported in the background in <= 10 s, the service's peak RSS <= 250 MB.
 * 1. As users run it (the budgets' figures): the service started with `npm start`'s command (the
 *    compiled dist/server/headless.js, its env and node flags; dist built first when missing), a
 *    fresh data folder, the gateway simulator in this process on loopback, polled at 1 s. Rounds
 *    interleave the formats: its `history.db` and its `history.json` through POST /api/import
 *    (followed on GET /api/import/status), and our own legacy `energy/history.json`, which the
 *    service imports in the background at start (followed on GET /api/history/stats). Figures:
 *    the time to done, the process's CPU time for it, its VmRSS once settled before the import and
 *    its VmHWM (peak over its life) before and after it (/proc/PID/status).
 * 2. Inside this process (tsx, the bench's own rows and simulator: RSS here is not the service's),
 *    the history.db import again, for what only an in-process service shows: the event-loop delay
 *    during the import against a window before it, and the polls that landed meanwhile. Same-run
 *    baseline: `sqlite3` copying the same rows into an empty history in one transaction (ATTACH,
 *    INSERT … SELECT, the minute rollup by one GROUP BY): the floor for the import's SQL.
 * 3. The two JSON formats imported by a history of its own in this process, against reading the
 *    file whole (readFileSync + JSON.parse).
 * Run: `node --import tsx bench/energy-import.bench.ts` (or `npm run bench energy-import`).
 */
import { spawn, spawnSync } from 'node:child_process';
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
import { freePort } from '../main/core/testing/free-port.js';
import { answersAt, cpuMs, loopbackServiceEnv, procBytes, stop } from './child-process.js';
import { npmStart } from './npm-start.js';
import { figure, median, round } from './report.js';

const ROWS = 604_800;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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
// Its settings name the simulator, so the import's gateway is the one polled (30 days kept: the
// rows stay inside the retention however long the bench runs).
const sim = await startGatewaySimulator({ firmware: 'V2.9' });
fs.writeFileSync(path.join(src, 'settings.json'), JSON.stringify({ sigen: { host: '127.0.0.1', port: sim.port, unitId: 247 }, history: { retentionDays: 30 } }));

// The same rows as sigen-home-bridge's history.json (in a folder of its own, with the same
// settings) and as our own legacy history.json.
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
const sigenJsonDir = path.join(work, 'sigen-json-data');
fs.mkdirSync(sigenJsonDir);
fs.copyFileSync(path.join(src, 'settings.json'), path.join(sigenJsonDir, 'settings.json'));
const sigenFile = path.join(sigenJsonDir, 'history.json');
writeJson(sigenFile, (r) => r);
const ourFile = path.join(work, 'our-history.json');
writeJson(ourFile, (r) => ({ t: r.t, solar: r.pvPower, home: r.loadPower, grid: r.gridPower, battery: r.batteryPower, soc: r.batterySoc, outdoorTemp: r.outdoorTemp }));

// --- 1. As users run it: `npm start`'s command, a process of its own, a fresh data folder ---
const repo = path.resolve(import.meta.dirname, '..');
const { env: startEnv, argv: startArgv } = npmStart(repo);
const built = spawnSync(process.execPath, [path.join(repo, 'scripts', 'ensure-built.mjs')], { cwd: repo, stdio: 'inherit' });
if (built.status !== 0) throw new Error('could not build dist/ (npm run build:main / build:ui)');
/** How long a started service polls before its RSS is read as settled. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 5000);
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
type ServiceFormat = 'sigen-db' | 'sigen-json' | 'legacy-json';
/** One import in a started service: time to done, CPU time, VmRSS and VmHWM before (settled; NaN for our legacy file, imported at start), VmHWM after. */
type ServiceRound = { ms: number; cpu: number; rssBefore: number; hwmBefore: number; hwmAfter: number };
const SERVICE_FORMATS: Array<{ format: ServiceFormat; name: string }> = [
  { format: 'sigen-db', name: "sigen-home-bridge's history.db (POST /api/import)" },
  { format: 'sigen-json', name: "sigen-home-bridge's history.json (POST /api/import)" },
  { format: 'legacy-json', name: 'our own legacy energy/history.json (imported at start)' },
];

async function importAsUsersRunIt(format: ServiceFormat, dataDir: string): Promise<ServiceRound> {
  const energyPort = await freePort();
  const base = `http://127.0.0.1:${energyPort}`;
  const getJson = async <T>(url: string) => (await fetch(`${base}${url}`)).json() as Promise<T>;
  if (format === 'legacy-json') {
    // A folder from before: our legacy file, which a start imports in the background once the port
    // answers, and settings naming the simulator and keeping 30 days (as the sigen settings do).
    fs.mkdirSync(path.join(dataDir, 'energy'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'energy', 'settings.json'), JSON.stringify({ gateway: { host: sim.host, port: sim.port }, history: { retentionDays: 30 } }));
    fs.copyFileSync(ourFile, path.join(dataDir, 'energy', 'history.json'));
  }
  const env = loopbackServiceEnv(startEnv, { dataDir, gateway: sim, energyPort, recordingsPort: await freePort() });
  const child = spawn(process.execPath, startArgv, { cwd: repo, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    let t0 = await answersAt(`${base}/api/state`, child);
    const pid = child.pid!;
    let cpu0 = cpuMs(pid);
    let rssBefore = NaN;
    let hwmBefore = NaN;
    let imported: () => Promise<number | undefined>;
    if (format === 'legacy-json') {
      type Stats = { legacyImport?: Array<{ status: string; imported?: number }> };
      imported = async () => {
        const reports = (await getJson<Stats>('/api/history/stats')).legacyImport;
        return reports?.length && reports.every((r) => r.status !== 'running') ? reports[0]!.imported ?? 0 : undefined;
      };
    } else {
      while (!(await getJson<{ connected: boolean }>('/api/state')).connected) await sleep(100);
      await sleep(SETTLE_MS);
      rssBefore = procBytes(pid, 'VmRSS');
      hwmBefore = procBytes(pid, 'VmHWM');
      cpu0 = cpuMs(pid);
      t0 = performance.now();
      const dir = format === 'sigen-db' ? src : sigenJsonDir;
      const res = await fetch(`${base}/api/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: 'sigen-home-bridge', dir }) });
      if (res.status !== 202) throw new Error(`POST /api/import answered ${res.status}: ${await res.text()}`);
      type Job = { state: string; result?: { historyReports: Array<{ imported?: number }> } };
      imported = async () => {
        const job = await getJson<Job>('/api/import/status');
        return job.state === 'running' ? undefined : job.result?.historyReports[0]?.imported ?? 0;
      };
    }
    let rows: number | undefined;
    while ((rows = await imported()) === undefined) {
      if (performance.now() - t0 > 300_000) throw new Error(`${format}: the import did not finish in 5 minutes`);
      await sleep(50);
    }
    const ms = performance.now() - t0;
    const round_ = { ms, cpu: cpuMs(pid) - cpu0, rssBefore, hwmBefore, hwmAfter: procBytes(pid, 'VmHWM') };
    if (rows !== ROWS) {
      console.error(`${format}: the service imported ${rows} rows, not ${ROWS}`);
      process.exitCode = 1;
    }
    return round_;
  } finally {
    await stop(child);
  }
}

const serviceRounds = new Map<ServiceFormat, ServiceRound[]>(SERVICE_FORMATS.map((f) => [f.format, []]));
for (let r = 0; r < ROUNDS; r++) {
  // Interleaved: each round imports every format once, each into a fresh service and data folder.
  for (const { format } of SERVICE_FORMATS) {
    const got = await importAsUsersRunIt(format, path.join(work, `service-${format}-${r}`));
    serviceRounds.get(format)!.push(got);
    const before = Number.isNaN(got.rssBefore) ? '' : `, before: VmRSS ${round(got.rssBefore / 1e6)} MB, VmHWM ${round(got.hwmBefore / 1e6)} MB`;
    console.log(`service round ${r + 1}, ${format}: ${round(got.ms)} ms, CPU ${round(got.cpu)} ms, VmHWM after ${round(got.hwmAfter / 1e6)} MB${before}`);
  }
}
console.log(`\n# As users run it: \`npm start\`'s command (${startArgv.join(' ')}), a fresh data folder, polling the simulator at 1 s; ${ROUNDS} interleaved rounds, medians`);
for (const { format, name } of SERVICE_FORMATS) {
  const rs = serviceRounds.get(format)!;
  const medOf = (f: (r: ServiceRound) => number) => median(rs.map(f));
  figure(`${name}, 604,800 rows, to done`, medOf((r) => r.ms) / 1000, 's', { max: 10 });
  figure('  CPU time of the service process for it, all threads', medOf((r) => r.cpu) / 1000, 's');
  figure('  peak RSS of the service process (VmHWM after the import)', medOf((r) => r.hwmAfter) / 1e6, 'MB', { max: 250 });
  if (format !== 'legacy-json') {
    figure('  baseline: its RSS settled before the import (VmRSS)', medOf((r) => r.rssBefore) / 1e6, 'MB');
    figure('  baseline: its peak RSS before the import (VmHWM)', medOf((r) => r.hwmBefore) / 1e6, 'MB');
  }
}

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

console.log(`\n# Inside this process: history.db imported (${ROWS} rows, ${round(fs.statSync(path.join(src, 'history.db')).size / 1e6)} MB) while polling at 1 s, ${ROUNDS} rounds`);
figure('import of 604,800 rows, POST to done (median)', med((r) => r.ms) / 1000, 's', { max: 10 });
figure('baseline: sqlite3 copying the same rows into an empty history, one transaction (median)', median(floor.map((f) => f.wall)) / 1000, 's');
figure('CPU time of the process during the import, all threads (median)', med((r) => r.cpu) / 1000, 's');
figure('baseline: CPU time of that sqlite3 copy (median)', median(floor.map((f) => f.cpu)) / 1000, 's');
// This process holds tsx, the bench's rows and the simulator too: the budget is the service's own (above).
figure('peak RSS of this bench process during the import (service inside it; median)', med((r) => r.rssPeak) / 1e6, 'MB');
figure('baseline: RSS of this bench process before the import (median)', med((r) => r.rssBefore) / 1e6, 'MB');
figure('import rate (median)', ROWS / (med((r) => r.ms) / 1000), 'rows/s', { min: 10_000 });
figure('event-loop delay p99, no import (baseline, median)', med((r) => r.baseP99), 'ms');
figure('event-loop delay p99 during the import (median)', med((r) => r.p99), 'ms', { max: Math.max(50, med((r) => r.baseP99) * 3) });
figure('longest event-loop stall during the import (worst round)', Math.max(...rounds.map((r) => r.max)), 'ms', { max: 250 });
figure('baseline: longest event-loop stall in the window before, no import (worst round)', Math.max(...rounds.map((r) => r.baseMax)), 'ms');
figure('polls during the import per poll interval (median)', med((r) => r.pollsRatio), 'ratio', { min: 0.8 });

// The same rows as JSON arrays, imported by a history of its own in this process:
// sigen-home-bridge's history.json (streamed by the import worker, a page at a time), then our own
// legacy format (read to its end to check it, then again to insert). Baseline in the same run: what
// reading the file whole costs (readFileSync + JSON.parse).
{
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

  console.log(`\n# Inside this process: ${ROWS} rows as a ${round(fs.statSync(sigenFile).size / 1e6)} MB history.json, ${ROUNDS} rounds`);
  figure("sigen-home-bridge's history.json, 604,800 rows (streamed by the import worker; median)", median(sigenImports.map((i) => i.ms)) / 1000, 's', { max: 10 });
  figure('CPU time of the process during that import, all threads (median)', median(sigenImports.map((i) => i.cpu)) / 1000, 's');
  figure('RSS growth of this bench process during that import (median)', median(sigenImports.map((i) => i.growth)) / 1e6, 'MB');
  figure('our own legacy history.json, the same rows (read to its end to check it, then again to insert; median)', median(ourImports.map((i) => i.ms)) / 1000, 's', { max: 10 });
  figure('CPU time of the process during that import, all threads (median)', median(ourImports.map((i) => i.cpu)) / 1000, 's');
  figure('RSS growth of this bench process during that import (median)', median(ourImports.map((i) => i.growth)) / 1e6, 'MB');
  figure('baseline: reading the sigen-home-bridge file whole (readFileSync + JSON.parse) alone (median)', median(wholes.map((w) => w.ms)) / 1000, 's');
  figure('baseline: CPU time of reading it whole (median)', median(wholes.map((w) => w.cpu)) / 1000, 's');
  figure('baseline: heap held by the text and its parsed rows when read whole (median)', median(wholes.map((w) => w.heap)) / 1e6, 'MB');
}
fs.rmSync(work, { recursive: true, force: true });
console.log(`load average during the run: ${os.loadavg().map((l) => round(l)).join(' ')} on ${os.cpus().length} CPUs`);
