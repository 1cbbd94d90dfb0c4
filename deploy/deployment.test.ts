import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComposedOnLoopback } from '../main/compose-on-loopback.js';

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
    const res = spawnSync('systemd-analyze', ['verify', ...units.map((u) => path.join(here, u))], { encoding: 'utf8' });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
  });

  it('the bridge runs npm start with Node 24 from the provision script, as PUID/PGID 1000, state in <repo>/config/state.db', () => {
    expect(units.sort()).toEqual(['home-lan-bridge-health.service', 'home-lan-bridge-health.timer', 'home-lan-bridge-restart.service', 'home-lan-bridge.service']);
    expect(keys('home-lan-bridge.service', 'ExecStart')).toEqual([`/bin/bash -c 'eval "$(scripts/provision-node.sh)" && exec npm start'`]);
    expect(keys('home-lan-bridge.service', 'User')).toEqual(['1000']);
    expect(keys('home-lan-bridge.service', 'Group')).toEqual(['1000']);
    const dir = keys('home-lan-bridge.service', 'WorkingDirectory')[0]!;
    expect(keys('home-lan-bridge.service', 'Environment')).toContain(`DB_PATH=${dir}/config/state.db`);
    expect(keys('home-lan-bridge.service', 'Restart')).toEqual(['on-failure']);
    // The scripts it names exist in the repository.
    for (const f of ['scripts/provision-node.sh', 'scripts/healthcheck.mjs']) expect(fs.existsSync(path.join(root, f)), f).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start).toContain('dist/server/headless.js');
  });

  it('the health check is polled every 30 seconds and a failure restarts the bridge', () => {
    expect(keys('home-lan-bridge-health.timer', 'OnUnitActiveSec')).toEqual(['30s']);
    expect(keys('home-lan-bridge-health.service', 'ExecStart')[0]).toContain('node scripts/healthcheck.mjs');
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
