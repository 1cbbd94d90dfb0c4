import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComposedOnLoopback } from '../main/compose-on-loopback.js';
import { freePort } from '../main/core/testing/free-port.js';

// The headless deployment (docs/deployment.md): systemd units in deploy/, and the health check the
// timer runs every 30 seconds against the running services.
const here = import.meta.dirname;
const root = path.resolve(here, '..');
const units = fs.readdirSync(here).filter((f) => /\.(service|timer)$/.test(f));
const read = (f: string) => fs.readFileSync(path.join(here, f), 'utf8');
const keys = (f: string, key: string) => [...read(f).matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!.trim());
const run = promisify(execFile);

describe('systemd units', () => {
  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
  const haveAnalyze = analyze.status === 0;
  if (!haveAnalyze) process.stdout.write('deployment.test: systemd-analyze is not installed (Debian package `systemd`): the unit files are not verified by systemd here\n');

  it.skipIf(!haveAnalyze)('systemd-analyze verify accepts every unit without a warning', () => {
    // As installed for this checkout: systemd checks that the commands they name are executables.
    const installed = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-units-'));
    const dir = keys('home-lan-bridge.service', 'WorkingDirectory')[0]!;
    try {
      for (const u of units) fs.writeFileSync(path.join(installed, u), read(u).split(dir).join(root));
      const res = spawnSync('systemd-analyze', ['verify', ...units.map((u) => path.join(installed, u))], { encoding: 'utf8' });
      expect(res.stderr).toBe('');
      expect(res.status).toBe(0);
    } finally {
      fs.rmSync(installed, { recursive: true, force: true });
    }
  });

  it('the bridge runs the compiled server with the project\'s Node (no npm, no build at start), as PUID/PGID 1000, state in <repo>/config/state.db', () => {
    expect(units.sort()).toEqual(['home-lan-bridge-health.service', 'home-lan-bridge-health.timer', 'home-lan-bridge-restart.service', 'home-lan-bridge.service']);
    const dir = keys('home-lan-bridge.service', 'WorkingDirectory')[0]!;
    const [start] = keys('home-lan-bridge.service', 'ExecStart');
    // The same node flags and environment as `npm start` (package.json), with the project's Node.
    const npmStart = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start as string;
    const npmWords = npmStart.split(/\s+/);
    expect(start).toBe(`${dir}/.runtime/node/bin/node ${npmWords.slice(npmWords.indexOf('node') + 1).join(' ')}`);
    for (const v of npmWords.filter((w) => /^[A-Z_]+=/.test(w))) expect(keys('home-lan-bridge.service', 'Environment')).toContain(v);
    expect(start).not.toMatch(/npm|bash|tsx/);
    expect(keys('home-lan-bridge.service', 'ExecStartPre')).toEqual([`${dir}/.runtime/node/bin/node scripts/ensure-built.mjs --check`]);
    expect(keys('home-lan-bridge.service', 'User')).toEqual(['1000']);
    expect(keys('home-lan-bridge.service', 'Group')).toEqual(['1000']);
    expect(keys('home-lan-bridge.service', 'Environment')).toContain(`DB_PATH=${dir}/config/state.db`);
    expect(keys('home-lan-bridge.service', 'Restart')).toEqual(['on-failure']);
    // The scripts it names exist in the repository.
    for (const f of ['scripts/provision-node.sh', 'scripts/healthcheck.mjs']) expect(fs.existsSync(path.join(root, f)), f).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start).toContain('dist/server/headless.js');
  });

  it('the health check is polled every 30 seconds and a failure restarts the bridge', () => {
    expect(keys('home-lan-bridge-health.timer', 'OnUnitActiveSec')).toEqual(['30s']);
    expect(keys('home-lan-bridge-health.service', 'ExecStart')).toEqual([`${keys('home-lan-bridge-health.service', 'WorkingDirectory')[0]}/.runtime/node/bin/node scripts/healthcheck.mjs`]);
    expect(keys('home-lan-bridge-health.service', 'OnFailure')).toEqual(['home-lan-bridge-restart.service']);
    expect(keys('home-lan-bridge-restart.service', 'ExecStart')).toEqual(['/bin/systemctl restart home-lan-bridge.service']);
    // Every unit a unit names is one of ours (systemd-analyze does not check OnFailure targets).
    for (const u of units) {
      for (const key of ['OnFailure', 'Requisite', 'Requires', 'Unit']) {
        for (const ref of keys(u, key)) expect(units, `${u} ${key}=${ref}`).toContain(ref);
      }
    }
  });
});

describe('health check against the running services (real sockets, loopback)', { timeout: 60_000 }, () => {
  let composed: Awaited<ReturnType<typeof startComposedOnLoopback>>;
  let env: NodeJS.ProcessEnv;
  const healthcheck = async (extra: NodeJS.ProcessEnv = {}) => {
    try {
      const { stdout } = await run(process.execPath, [path.join(root, 'scripts/healthcheck.mjs')], { env: { ...env, ...extra }, timeout: 45_000 });
      return { code: 0, stdout };
    } catch (err) {
      const e = err as { code: number; stdout: string };
      return { code: e.code, stdout: e.stdout };
    }
  };

  beforeAll(async () => {
    composed = await startComposedOnLoopback('deploy-health-');
    env = { PATH: process.env.PATH, HEALTH_HOST: '127.0.0.1', SERVER_PORT: new URL(composed.energy.url).port, PORT: String(composed.recordings.port), HEALTH_TIMEOUT_MS: '10000' };
  });
  afterAll(async () => {
    await composed?.stop();
  });

  it('passes while both services answer, and says the sync is ok', async () => {
    const res = await healthcheck();
    expect(res.stdout).toBe('energy bridge: ok\nrecording sync: ok\n');
    expect(res.code).toBe(0);
  });

  it('fails when a service does not answer', async () => {
    const res = await healthcheck({ PORT: '9' });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('recording sync: http://127.0.0.1:9/healthz did not answer');
  });

  it('fails when a service answers something other than 200', async () => {
    // The energy bridge has no /healthz: pointing the sync check at it gives its JSON 404.
    const res = await healthcheck({ PORT: new URL(composed.energy.url).port });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('answered HTTP 404');
  });
});

/**
 * The unit's own command lines, run here as systemd would run them (its WorkingDirectory being this
 * checkout, its Environment= lines, ports and data on loopback and in a temporary folder).
 */
describe("the unit's command line (the compiled server, started directly)", { timeout: 60_000 }, () => {
  const unit = 'home-lan-bridge.service';
  const dir = keys(unit, 'WorkingDirectory')[0]!;
  const here = (line: string) => line.split(dir).join(root);
  const argv = (line: string) => here(line).split(/\s+/);
  const node = path.join(root, '.runtime', 'node', 'bin', 'node');
  const noNode = fs.existsSync(node) ? '' : `${node} is missing (scripts/provision-node.sh makes it)`;
  if (noNode) process.stdout.write(`deployment.test: the unit's command line is not run: ${noNode}\n`);
  const unitEnv = Object.fromEntries(keys(unit, 'Environment').map((kv) => [kv.slice(0, kv.indexOf('=')), here(kv.slice(kv.indexOf('=') + 1))]));

  it.skipIf(!!noNode)('ExecStartPre passes on a built checkout, and stops with one line where the build is missing or older than the sources', () => {
    const [pre] = keys(unit, 'ExecStartPre').map(argv);
    const ok = spawnSync(pre![0]!, pre!.slice(1), { cwd: root, encoding: 'utf8' });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    // A checkout whose sources are newer than its build (a source file changed on disk).
    const stale = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-stale-'));
    try {
      for (const [f, t] of [['dist/server/headless.js', 1_000], ['dist/renderer/index.html', 1_000], ['main/headless.ts', 2_000], ['renderer/main.tsx', 500]] as const) {
        fs.mkdirSync(path.join(stale, path.dirname(f)), { recursive: true });
        fs.writeFileSync(path.join(stale, f), '');
        fs.utimesSync(path.join(stale, f), t, t);
      }
      const res = spawnSync(pre![0]!, [...pre!.slice(1), stale], { cwd: root, encoding: 'utf8' });
      expect(res.status).toBe(1);
      expect(res.stderr.trim().split('\n')).toEqual([expect.stringContaining('dist/server/headless.js (the services) is older than its sources; run "npm run build"')]);
      expect(fs.statSync(path.join(stale, 'dist/server/headless.js')).size).toBe(0); // nothing was built
      fs.rmSync(path.join(stale, 'dist/server/headless.js'));
      expect(spawnSync(pre![0]!, [...pre!.slice(1), stale], { encoding: 'utf8' }).stderr).toContain('dist/server/headless.js (the services) is missing');
    } finally {
      fs.rmSync(stale, { recursive: true, force: true });
    }
  });

  it.skipIf(!!noNode)('ExecStart answers on the energy and recording ports as the only process, and SIGTERM stops it cleanly', async () => {
    const [start] = keys(unit, 'ExecStart').map(argv);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-unit-'));
    const [energyPort, recordingsPort] = [await freePort(), await freePort()];
    fs.mkdirSync(path.join(tmp, 'media'));
    const child = spawn(start![0]!, start!.slice(1), {
      cwd: root,
      env: { PATH: process.env.PATH, ...unitEnv, DB_PATH: path.join(tmp, 'config', 'state.db'), DATA_DIR: path.join(tmp, 'config'), MEDIA_ROOT: path.join(tmp, 'media'), BIND_HOST: '127.0.0.1', SERVER_PORT: String(energyPort), PORT: String(recordingsPort), GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: '9', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
    try {
      const answers = async (url: string) => {
        for (let i = 0; i < 300; i++) {
          const res = await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
          if (res?.ok) return res.status;
          if (child.exitCode !== null) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`${url} did not answer; log:\n${log}`);
      };
      expect(await answers(`http://127.0.0.1:${energyPort}/api/state`)).toBe(200);
      expect(await answers(`http://127.0.0.1:${recordingsPort}/healthz`)).toBe(200);
      // The unit leaves one process: the server itself (no npm or shell parent, no child process).
      expect(fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')).toContain('dist/server/headless.js');
      expect(fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()).toBe('');
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
