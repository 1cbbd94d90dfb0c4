import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeVersionProblem } from './core/node-version.js';
import { repoRoot } from './core/paths.js';
import { freePort } from './core/testing/free-port.js';
import { waitFor } from './core/testing/wait-for.js';
import { startGatewaySimulator, type GatewaySimulator } from './energy/simulator/gateway-simulator.js';
import { mosquittoUnavailable, startMosquitto, watch } from './integrations/mqtt/testing/mosquitto.js';

/**
 * `npm start` runs the bundle scripts/build-server.mjs writes to dist/server/ (a few files instead
 * of hundreds). A bundle can break what a module graph does not: a worker thread found beside the
 * module that starts it, a page folder found from the repository root, the recording sync loaded
 * after the bridge. These run the built bundle itself, as `npm start` does, with real sockets.
 */
const server = path.join(repoRoot, 'dist', 'server');
// What `npm start`'s prestart runs (the build when missing or older than its sources), without npm's own start-up.
const prestart = () => spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'ensure-built.mjs')], { cwd: repoRoot, stdio: 'inherit' });
const noBroker = mosquittoUnavailable();
if (noBroker) console.warn(`bundled-start MQTT test skipped: ${noBroker}`);

const json = async (url: string) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return res.ok ? ((await res.json()) as Record<string, unknown>) : undefined;
};

describe('the bundled start (dist/server)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'server-bundle-'));
  let sim: GatewaySimulator;
  let child: ChildProcess | undefined;
  let log = '';
  let energy = '';
  let recordings = '';
  const legacy = path.join(tmp, 'data', 'energy', 'history.json');
  // Three samples an hour old in the legacy history format, for the import worker.
  const t0 = Date.now() - 3_600_000;
  const samples = [0, 1, 2].map((i) => ({ t: t0 + i * 1000, solar: 1000 + i, home: 500 + i }));
  // Every file of the bundle the process loads, as it loads it (a module hook given by --import).
  const loadedList = path.join(tmp, 'loaded.txt');
  const hook = path.join(tmp, 'record-loads.mjs');
  const loadedPaths = () => (fs.existsSync(loadedList) ? [...new Set(fs.readFileSync(loadedList, 'utf8').split('\n').filter((u) => u.startsWith('file:')))].map((u) => new URL(u).pathname) : []);
  const loadedFiles = () => loadedPaths().filter((f) => f.startsWith(server));
  // Every date the process has ICU format (Intl.DateTimeFormat, Date#toLocale…), by time zone asked for.
  const icuList = path.join(tmp, 'icu-dates.txt');
  const icuDates = () => (fs.existsSync(icuList) ? fs.readFileSync(icuList, 'utf8').split('\n').filter(Boolean) : []);
  /** The loaded bundle files that contain `marker`, by name. */
  const loadedWith = (marker: string) => loadedFiles().filter((f) => fs.readFileSync(f, 'utf8').includes(marker)).map((f) => path.basename(f));

  beforeAll(async () => {
    expect(prestart().status).toBe(0);
    sim = await startGatewaySimulator({ firmware: 'V2.9' });
    fs.mkdirSync(path.dirname(legacy), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'media'));
    fs.writeFileSync(legacy, JSON.stringify(samples));
    const [energyPort, recordingsPort] = [await freePort(), await freePort()];
    energy = `http://127.0.0.1:${energyPort}`;
    recordings = `http://127.0.0.1:${recordingsPort}`;
    fs.writeFileSync(
      hook,
      `import fs from 'node:fs'; import { registerHooks } from 'node:module';\n` +
        `registerHooks({ load(url, context, next) { fs.appendFileSync(${JSON.stringify(loadedList)}, url + '\\n'); return next(url, context); } });\n` +
        `const icu = (options) => fs.appendFileSync(${JSON.stringify(icuList)}, String(options?.timeZone ?? 'default') + '\\n');\n` +
        `const Real = Intl.DateTimeFormat;\n` +
        `Intl.DateTimeFormat = new Proxy(Real, { construct(t, a) { icu(a[1]); return Reflect.construct(t, a); }, apply(t, self, a) { icu(a[1]); return Reflect.apply(t, self, a); } });\n` +
        `for (const m of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) { const f = Date.prototype[m]; Date.prototype[m] = function (l, o) { icu(o); return f.call(this, l, o); }; }\n`,
    );
    child = spawn(process.execPath, ['--import', pathToFileURL(hook).href, path.join(server, 'headless.js')], {
      cwd: tmp,
      env: {
        ...process.env,
        VITEST: '',
        DATA_DIR: path.join(tmp, 'data'),
        SERVER_PORT: String(energyPort),
        PORT: String(recordingsPort),
        MEDIA_ROOT: path.join(tmp, 'media'),
        BIND_HOST: '127.0.0.1',
        GATEWAY_HOST: sim.host,
        GATEWAY_PORT: String(sim.port),
        POLL_INTERVAL_MS: '1000',
        LOG_LEVEL: 'warn',
        TZ: 'Australia/Sydney',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  }, 300_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const gone = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    await sim?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('is a few files, every one at the root of dist/server (workers under their own names)', () => {
    const files = fs.readdirSync(server).filter((f) => f.endsWith('.js'));
    expect(files).toEqual(expect.arrayContaining(['headless.js', 'reader-worker.js', 'import-worker.js', 'download-worker.js']));
    // Tens of files (entries, workers and their shared chunks), not the hundreds of a module graph.
    expect(files.length).toBeLessThan(60);
    expect(fs.readdirSync(server, { withFileTypes: true }).filter((e) => e.isDirectory())).toEqual([]);
  });

  it('polls the gateway and serves the pages from the repository', async () => {
    const state = await waitFor('a reading', async () => {
      const s = await json(`${energy}/api/state`);
      return s?.connected === true ? s : undefined;
    });
    expect(state.connected).toBe(true);
    const page = await fetch(`${energy}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  }, 90_000);

  it('imports a legacy history file in its worker and reads history through the reader workers', async () => {
    const stats = await waitFor('the legacy import', async () => {
      const s = await json(`${energy}/api/history/stats`);
      const jobs = s?.legacyImport as Array<{ status: string }> | undefined;
      return jobs?.[0]?.status === 'imported' ? s : undefined;
    });
    expect(stats.legacyImport).toEqual([{ file: legacy, status: 'imported', imported: 3, skipped: 0 }]);
    const rows = (await (await fetch(`${energy}/api/history?since=${t0 - 1000}&until=${t0 + 5000}`)).json()) as Array<{ t: number; solar: number }>;
    expect(rows.map((r) => [r.t, r.solar])).toEqual(samples.map((s) => [s.t, s.solar]));
    // The export streams from a reader worker too: the imported rows, then the live polls.
    const csv = (await (await fetch(`${energy}/api/history/export?format=csv`)).text()).trim().split('\n');
    expect(csv.length).toBeGreaterThan(samples.length);
    expect(csv.filter((line) => /(^|,)100[012](,|$)/.test(line))).toHaveLength(samples.length);
  }, 90_000);

  it('starts the recording sync after the bridge, from its own chunk, without the cloud\'s WebSocket client', async () => {
    const health = await waitFor('the recording sync', () => json(`${recordings}/healthz`));
    expect(health).toEqual({ status: 'ok' });
    // ws loads once a sync opens the box cloud's channel (or MQTT over WebSocket: later in this file).
    expect(loadedWith('"permessage-deflate"')).toEqual([]);
  }, 90_000);

  // A default install (MQTT off) does not load mqtt.js (the bundle keeps identifiers: its class is
  // `MqttClient=class _MqttClient`)
  // nor glob; switched on through the settings, with no restart, the bridge connects and publishes.
  it.skipIf(noBroker !== null)('loads the MQTT client only when MQTT is switched on, and then connects without a restart', async () => {
    await waitFor('the recording sync', () => json(`${recordings}/healthz`));
    expect(loadedFiles().length).toBeGreaterThan(3);
    expect(loadedWith('class _MqttClient')).toEqual([]);
    expect(loadedWith('Minimatch')).toEqual([]);
    const broker = await startMosquitto();
    const seen = await watch(broker.url, ['#']);
    try {
      const res = await fetch(`${energy}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mqtt: { enabled: true, url: broker.url } }) });
      expect(res.status).toBe(200);
      await seen.waitFor((m) => m.topic.endsWith('/energy/availability') && m.payload === 'online', 30_000);
      await seen.waitFor((m) => m.topic.endsWith('/energy/state'), 30_000);
      expect(loadedWith('class _MqttClient')).toHaveLength(1);
    } finally {
      await fetch(`${energy}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mqtt: { enabled: false } }) });
      await seen.close();
      await broker.close();
    }
  }, 90_000);

  // What a start never needs stays unloaded: fastify's JSON-schema compilers and inject (no route
  // declares a schema; inject is for tests) and the demo's simulated box, cloud and media server.
  it('loads neither fastify\'s schema compilers nor inject nor any simulator', async () => {
    await waitFor('the recording sync', () => json(`${recordings}/healthz`));
    const fromNodeModules = loadedPaths().filter((f) => f.includes('/node_modules/')).map((f) => f.split('/node_modules/').pop()!.split('/').slice(0, 2).join('/'));
    expect(fromNodeModules.some((f) => f.startsWith('better-sqlite3/'))).toBe(true);
    expect(fromNodeModules.filter((f) => /^(ajv|ajv-formats|fast-json-stringify|light-my-request|@fastify\/ajv-compiler|@fastify\/fast-json-stringify-compiler)\//.test(f))).toEqual([]);
    expect(loadedWith('strictTuples')).toEqual([]); // an option name of ajv's, had it been bundled
    expect(loadedWith('createBoxSimulator')).toEqual([]);
    expect(loadedWith('process_resident_memory_bytes')).toEqual([]); // prom-client (its own series' names), with metrics off
  });

  // The first ICU date formatter pages in ~6 MB of locale data for the life of the process: day
  // boundaries, the tariff's windows and the sync schedule read the system's tz database instead.
  it('formats no date through ICU while it polls, keeps today\'s totals and schedules the sync', async () => {
    await waitFor('the recording sync', () => json(`${recordings}/healthz`));
    await waitFor('a few polls', async () => {
      const s = await json(`${energy}/api/state`);
      return s?.connected === true ? s : undefined;
    });
    await new Promise((r) => setTimeout(r, 2500));
    const sync = await json(`${recordings}/api/sync`);
    expect(sync?.schedule).toMatchObject({ cron: '*/30 * * * *', timezone: 'Australia/Sydney', next_run: expect.any(String) });
    const daily = await json(`${energy}/api/history/daily`);
    expect((daily?.days as unknown[] | undefined)?.length).toBeGreaterThan(0);
    const snapshot = await json(`${energy}/api/snapshot`);
    expect(snapshot).toBeDefined();
    expect(icuDates()).toEqual([]);
  }, 90_000);

  // Metrics switched on through the settings, with no restart: prom-client loads and /metrics counts.
  it('loads prom-client when metrics are switched on, and serves them without a restart', async () => {
    expect((await fetch(`${energy}/metrics`)).status).toBe(404);
    const res = await fetch(`${energy}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metrics: { enabled: true } }) });
    expect(res.status).toBe(200);
    try {
      const polled = await waitFor('a counted poll', async () => {
        const text = await (await fetch(`${energy}/metrics`)).text();
        return /hlb_energy_polls_total\{outcome="ok"\} [1-9]/.test(text) ? text : undefined;
      });
      expect(polled).toMatch(/hlb_energy_gateway_connected 1/);
      expect(loadedWith('process_resident_memory_bytes')).toHaveLength(1);
    } finally {
      await fetch(`${energy}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metrics: { enabled: false } }) });
    }
    const bundled = fs.readdirSync(server).filter((f) => f.endsWith('.js') && fs.readFileSync(path.join(server, f), 'utf8').includes('createBoxSimulator'));
    expect(bundled).toEqual([]);
  });

  it('has a download worker that loads on its own and reports ready', async () => {
    const worker = new Worker(path.join(server, 'download-worker.js'));
    try {
      const first = await new Promise<unknown>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(first).toEqual({ op: 'ready' });
    } finally {
      await worker.terminate();
    }
  });

  it('logged no error while doing all that', () => {
    expect(log).not.toMatch(/"level":(50|60)|Error:/);
  });
});

/** A Node older than the services need beside the provisioned one (these machines' Debian Node 20), if any. */
const olderNode = (() => {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!fs.existsSync(candidate) || fs.realpathSync(candidate) === fs.realpathSync(process.execPath)) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    if (version && nodeVersionProblem(version)) return { path: candidate, version };
  }
  return null;
})();
if (!olderNode) console.warn('older-Node start test skipped: no Node older than 24.11 at /usr/bin/node or /usr/local/bin/node');

describe.skipIf(!olderNode)('the bundled start on an older Node', () => {
  it('stops at once with what to do, instead of crashing in the SQLite addon (Node 20 segfaults loading it)', () => {
    expect(prestart().status).toBe(0);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'server-bundle-old-node-'));
    try {
      const dataDir = path.join(tmp, 'data');
      const res = spawnSync(olderNode!.path, [path.join(server, 'headless.js')], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: dataDir, SERVER_PORT: '1', PORT: '1', BIND_HOST: '127.0.0.1', GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: '1' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(res.signal).toBeNull();
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(`runs on Node 24.11 or later; this is Node v${olderNode!.version} (${olderNode!.path})`);
      expect(res.stderr).toContain('source scripts/provision-node.sh');
      // Nothing was started or written.
      expect(fs.existsSync(dataDir)).toBe(false);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
