/**
 * The runtime the service ships on: `node --import tsx bench/runtime-start.bench.ts` (or
 * `npm run bench runtime`).
 *  1. Time from spawn to the energy port answering `GET /api/state` (200), for the compiled start
 *     (the node command `npm start` runs, its compile cache filled by an earlier start), median of 5,
 *     on a fresh data folder and on restarts with a week of 1 s history. Target: <= 500 ms each.
 *     Same-run baselines: a bare fastify server on the same Node answering its one route, and the
 *     development start through tsx.
 *  2. Resident memory of both services (one process; worker threads included) idle at a 1 s poll
 *     against the gateway simulator on loopback, after a minute. Target: <= 90 MB. Baselines: the
 *     bare fastify server after the same minute, and the `npm` process that `npm start` keeps as the
 *     service's parent.
 *  3. The systemd unit (deploy/home-lan-bridge.service) beside `npm start`, in the same run: spawn to
 *     the energy port answering for the unit's own command lines (its ExecStartPre build check, then
 *     ExecStart: the compiled server on the project's Node) and for `npm start`; and the resident
 *     memory of every process each leaves running, idle after the same minute.
 * Builds dist/ first when it is missing (as `npm start` does). Loopback only.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGatewaySimulator } from '../main/energy/simulator/gateway-simulator.js';
import { DurableStore } from '../main/energy/history/durable-store.js';
import { SAMPLE_FIELDS, type HistorySample } from '../main/energy/history/sample.js';
import { answersAt, cpuMs, rssMb, loopbackServiceEnv, stop } from './child-process.js';
import { npmStart } from './npm-start.js';
import { figure, median } from './report.js';
import { freePort } from '../main/core/testing/free-port.js';

const repo = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 60_000);

// The environment and node arguments `npm start` runs.
const { env: startEnv, argv: startArgv } = npmStart(repo);

// The unit's command lines and environment, with its WorkingDirectory read as this checkout.
const unitText = fs.readFileSync(path.join(repo, 'deploy', 'home-lan-bridge.service'), 'utf8');
const unitRaw = (key: string) => [...unitText.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!.trim());
const unitKeys = (key: string) => unitRaw(key).map((v) => v.split(unitRaw('WorkingDirectory')[0]!).join(repo));
const unitPre = unitKeys('ExecStartPre')[0]!.split(/\s+/);
const unitStart = unitKeys('ExecStart')[0]!.split(/\s+/);
const unitEnv = Object.fromEntries(unitKeys('Environment').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const npmCli = process.env.npm_execpath;

const built = spawnSync(process.execPath, [path.join(repo, 'scripts', 'ensure-built.mjs')], { cwd: repo, stdio: 'inherit' });
if (built.status !== 0) throw new Error('could not build dist/ (npm run build:main / build:ui)');

/** A process and its descendants, by pid (Linux /proc). */
const processTree = (pid: number): number[] => [
  pid,
  ...fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
    .flatMap((child) => processTree(Number(child))),
];

const sim = await startGatewaySimulator({ firmware: 'V2.9' });
const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-runtime-'));
let run = 0;
const serviceEnv = async () => {
  const energyPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...loopbackServiceEnv(startEnv, { dataDir: path.join(dataRoot, `run-${run++}`), gateway: sim, energyPort, recordingsPort: await freePort() }),
    // A zone with daylight saving, as most users have, whatever this machine is set to.
    TZ: 'Australia/Sydney',
  };
  return { energyPort, env };
};

const bareFastify = (port: number) => [
  '--input-type=module',
  '-e',
  `import Fastify from 'fastify'; const app = Fastify(); app.get('/', async () => ({ ok: true })); await app.listen({ port: ${port}, host: '127.0.0.1' });`,
];

/** A data folder whose history holds a week of 1 s polls ending now, written through the history's own store. */
function buildWeek(dataDir: string): { rows: number } {
  const rows = 7 * 86_400;
  const last = Math.floor(Date.now() / 1000) * 1000 - 1000;
  fs.mkdirSync(path.join(dataDir, 'energy'), { recursive: true });
  const store = new DurableStore(path.join(dataDir, 'energy', 'history.db'));
  try {
    for (let from = 0; from < rows; from += 50_000) {
      const batch: HistorySample[] = [];
      for (let i = from; i < Math.min(rows, from + 50_000); i++) {
        const t = last - (rows - 1 - i) * 1000;
        const s = { t } as HistorySample;
        SAMPLE_FIELDS.forEach((f, j) => (s[f] = Math.round(Math.sin(t / 600_000 + j) * 400_000) / 100));
        batch.push({ ...s, homeGeneral: null, soc: ((t / 1000) % 1000) / 10 });
      }
      store.insertMany(batch);
    }
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    store.close();
  }
  // On disk before the starts are timed, as on a machine that has been running: otherwise the
  // kernel is still writing the 80 MB back while they run, and their own writes wait behind it.
  const fd = fs.openSync(path.join(dataDir, 'energy', 'history.db'), 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return { rows };
}

/**
 * Median spawn-to-answer over ROUNDS fresh processes, and the median CPU time each had used when
 * it answered: on a busy machine the wall time stretches with the queue for a core, the CPU time
 * much less, so the two together say whether a slow figure is the program or the machine.
 */
type Start = { cmd?: string; argv: string[]; env: NodeJS.ProcessEnv; url: string; pre?: string[] };
async function startup(args: () => Promise<Start>, rounds = ROUNDS, runMs = 0): Promise<{ wall: number; cpu: number }> {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const { cmd = process.execPath, argv, env, url, pre } = await args();
    const t0 = performance.now();
    if (pre && spawnSync(pre[0]!, pre.slice(1), { cwd: repo, env, stdio: 'inherit' }).status !== 0) throw new Error(`${pre.join(' ')} failed`);
    const child = spawn(cmd, argv, { cwd: repo, env, stdio: 'ignore' });
    try {
      times.push((await answersAt(url, child)) - t0);
      cpu.push(cpuMs(child.pid!));
      if (runMs) await new Promise((r) => setTimeout(r, runMs));
    } finally {
      await stop(child);
    }
  }
  return { wall: median(times), cpu: median(cpu) };
}

try {
  // 1. Start-up. The compiled start keeps V8's code cache on disk (headless.ts): one start fills
  // a fresh cache folder, the timed ones use it; a first start without any cache is shown beside.
  const cacheDir = path.join(dataRoot, 'compile-cache');
  const compiledStart = (extraEnv: NodeJS.ProcessEnv) => async () => {
    const { energyPort, env } = await serviceEnv();
    return { argv: startArgv, env: { ...env, ...extraEnv }, url: `http://127.0.0.1:${energyPort}/api/state` };
  };
  await startup(compiledStart({ NODE_COMPILE_CACHE: cacheDir }), 1);
  const compiled = await startup(compiledStart({ NODE_COMPILE_CACHE: cacheDir }));
  const cold = await startup(compiledStart({ NODE_DISABLE_COMPILE_CACHE: '1' }), 3);
  const bare = await startup(async () => {
    const port = await freePort();
    return { argv: bareFastify(port), env: process.env, url: `http://127.0.0.1:${port}/` };
  });
  const dev = await startup(async () => {
    const { energyPort, env } = await serviceEnv();
    return { argv: ['--import', 'tsx', 'main/headless.ts'], env, url: `http://127.0.0.1:${energyPort}/api/state` };
  }, 3);
  // A restart as a user's finds it: a week of 1 s polls ending now in the history (the history
  // bench's week). The first start on that folder rebuilds every day's totals from it after the
  // port opens and runs 10 s so that it finishes; the timed starts are the restarts after it.
  const weekDir = path.join(dataRoot, 'week');
  const week = buildWeek(weekDir);
  const withWeek = async () => {
    const { energyPort, env } = await serviceEnv();
    return { argv: startArgv, env: { ...env, NODE_COMPILE_CACHE: cacheDir, DATA_DIR: weekDir }, url: `http://127.0.0.1:${energyPort}/api/state` };
  };
  const firstOnWeek = await startup(withWeek, 1, 10_000);
  const restart = await startup(withWeek);
  // The systemd unit's two command lines, and `npm start` (npm, its prestart check, then node).
  const unitStarted = async (): Promise<Start> => {
    const { energyPort, env } = await serviceEnv();
    return { cmd: unitStart[0], argv: unitStart.slice(1), pre: unitPre, env: { ...env, ...unitEnv, DATA_DIR: env.DATA_DIR, DB_PATH: path.join(env.DATA_DIR!, 'state.db'), NODE_COMPILE_CACHE: cacheDir }, url: `http://127.0.0.1:${energyPort}/api/state` };
  };
  const unit = await startup(unitStarted);
  const viaNpm = npmCli
    ? await startup(async () => {
        const { energyPort, env } = await serviceEnv();
        return { argv: [npmCli, 'start', '--silent'], env: { ...env, NODE_COMPILE_CACHE: cacheDir }, url: `http://127.0.0.1:${energyPort}/api/state` };
      }, 3)
    : undefined;

  figure(`energy port answers after spawn, npm start's command (median of ${ROUNDS})`, compiled.wall, 'ms', { max: 500 });
  figure('  CPU time the service had used when it answered', compiled.cpu, 'ms');
  figure(`the same, a restart with a week of 1 s history (${week.rows.toLocaleString('en')} polls; median of ${ROUNDS})`, restart.wall, 'ms', { max: 500 });
  figure('  CPU time that restart had used when it answered', restart.cpu, 'ms');
  figure("  the first start on that folder (every day's totals rebuilt from the week, after the port opens)", firstOnWeek.wall, 'ms');
  figure('baseline: bare fastify server answers after spawn', bare.wall, 'ms');
  figure('  CPU time the bare fastify server had used when it answered', bare.cpu, 'ms');
  figure('the same start with no compile cache, a first start (median of 3)', cold.wall, 'ms');
  figure('development start through tsx (npm run dev, median of 3)', dev.wall, 'ms');
  figure(`the systemd unit's command lines (ExecStartPre build check, then ExecStart; median of ${ROUNDS})`, unit.wall, 'ms', { max: 500 });
  if (viaNpm) figure('the same service through `npm start` (npm, its prestart check, then node; median of 3)', viaNpm.wall, 'ms');
  else process.stdout.write('runtime bench: not run through npm (npm_execpath unset), so no `npm start` rows\n');

  // 2. Idle memory after a minute at 1 s polls, beside a bare fastify server idle as long, and the
  // npm process `npm start` keeps as the parent.
  const { energyPort, env } = await serviceEnv();
  const service = npmCli
    ? spawn(process.execPath, [npmCli, 'start', '--silent'], { cwd: repo, env, stdio: 'ignore' })
    : spawn(process.execPath, startArgv, { cwd: repo, env, stdio: 'ignore' });
  const barePort = await freePort();
  const bareServer = spawn(process.execPath, bareFastify(barePort), { cwd: repo, stdio: 'ignore' });
  const unitRun = await unitStarted();
  const unitService = spawn(unitRun.cmd!, unitRun.argv, { cwd: repo, env: unitRun.env, stdio: 'ignore' });
  try {
    await answersAt(`http://127.0.0.1:${energyPort}/api/state`, service);
    await answersAt(unitRun.url, unitService);
    await answersAt(`http://127.0.0.1:${barePort}/`, bareServer);
    // The service process: npm's child when started through npm, else the spawned node itself.
    const servicePid = npmCli ? Number(fs.readFileSync(`/proc/${service.pid}/task/${service.pid}/children`, 'utf8').trim().split(/\s+/)[0]) : service.pid!;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const polled = (await (await fetch(`http://127.0.0.1:${energyPort}/api/state`)).json()) as { lastUpdated?: number | null };
    if (!polled.lastUpdated || Date.now() - polled.lastUpdated > 5000) throw new Error('the service was not polling the simulator');
    figure(`both services idle at 1 s polls after ${IDLE_MS / 1000} s, RSS`, rssMb(servicePid), 'MB', { max: 90 });
    figure(`baseline: bare fastify server idle ${IDLE_MS / 1000} s, RSS`, rssMb(bareServer.pid!), 'MB');
    if (npmCli) figure('the npm process `npm start` keeps as the parent, RSS', rssMb(service.pid!), 'MB');
    const treeRss = (pid: number) => processTree(pid).reduce((sum, p) => sum + rssMb(p), 0);
    figure(`the systemd unit's processes idle ${IDLE_MS / 1000} s (${processTree(unitService.pid!).length} process), RSS of all`, treeRss(unitService.pid!), 'MB', { max: 90 });
    figure(`\`npm start\`'s processes idle ${IDLE_MS / 1000} s (${processTree(service.pid!).length} processes), RSS of all`, treeRss(service.pid!), 'MB');
  } finally {
    await stop(unitService);
    await stop(service);
    await stop(bareServer);
  }
} finally {
  await sim.close();
  fs.rmSync(dataRoot, { recursive: true, force: true });
}
