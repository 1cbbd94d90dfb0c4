import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer, listen } from './http.js';
import { createLogger, formatLogLine, logFormatFromEnv, silentLogger } from './logger.js';
import { repoRoot } from './paths.js';
import { freePort } from './testing/free-port.js';
import { lanUrls, PortInUseError } from './startup.js';

const interfaces: ReturnType<typeof os.networkInterfaces> = {
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
  eth0: [
    { address: '192.168.1.40', netmask: '255.255.255.0', family: 'IPv4', mac: 'aa:bb:cc:dd:ee:ff', internal: false, cidr: '192.168.1.40/24' },
    { address: 'fe80::1', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: 'aa:bb:cc:dd:ee:ff', internal: false, cidr: 'fe80::1/64', scopeid: 2 },
  ],
  wlan0: [{ address: '10.0.0.7', netmask: '255.255.255.0', family: 'IPv4', mac: '11:22:33:44:55:66', internal: false, cidr: '10.0.0.7/24' }],
};

describe('start banner URLs', () => {
  it('lists every non-internal IPv4 address a phone can open when bound to all interfaces', () => {
    expect(lanUrls(interfaces, '0.0.0.0', 5163)).toEqual(['http://127.0.0.1:5163/', 'http://192.168.1.40:5163/', 'http://10.0.0.7:5163/']);
  });
  it('lists only the bound address otherwise', () => {
    expect(lanUrls(interfaces, '127.0.0.1', 8124)).toEqual(['http://127.0.0.1:8124/']);
  });
});

describe('log formats', () => {
  const capture = (format: 'pretty' | 'json') => {
    const out = new PassThrough();
    const lines: string[] = [];
    out.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
    const logger = createLogger({ name: 'test', level: 'info', format, destination: out });
    return { logger, lines };
  };

  it('writes one JSON object per line for collectors', async () => {
    const { logger, lines } = capture('json');
    logger.child({ service: 'energy' }).warn({ host: '192.168.1.9', port: 502 }, 'gateway unreachable');
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, service: 'energy', host: '192.168.1.9', port: 502, msg: 'gateway unreachable' });
  });

  it('writes readable lines on a terminal, secrets still redacted', async () => {
    const { logger, lines } = capture('pretty');
    logger.child({ service: 'energy' }).warn({ host: '192.168.1.9', port: 502, passcode: '1234' }, 'gateway unreachable');
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d WARN {2}energy\s+gateway unreachable host=192\.168\.1\.9 port=502 passcode=\[redacted\]$/);
    expect(lines[0]).not.toContain('1234');
  });

  it('shows an error message and the top of its stack', () => {
    const line = formatLogLine(JSON.stringify({ level: 50, time: 0, msg: 'request failed', err: { message: 'disk on fire', stack: 'Error: disk on fire\n    at x (a.ts:1:1)' } }));
    expect(line).toContain('ERROR');
    expect(line).toContain('err="disk on fire"');
    expect(line).toContain('at x (a.ts:1:1)');
  });

  it('picks readable lines for a terminal and JSON for a pipe unless LOG_FORMAT says', () => {
    expect(logFormatFromEnv(undefined, true)).toBe('pretty');
    expect(logFormatFromEnv(undefined, false)).toBe('json');
    expect(logFormatFromEnv('json', true)).toBe('json');
    expect(logFormatFromEnv('pretty', false)).toBe('pretty');
  });
});

describe('a port already in use', () => {
  const blockers: net.Server[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-test-'));
  afterAll(async () => {
    for (const b of blockers) await new Promise((r) => b.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const occupy = async (): Promise<number> => {
    const server = net.createServer();
    blockers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as net.AddressInfo).port;
  };

  it('is an error naming the port and the variable that moves it', async () => {
    const port = await occupy();
    const app = createHttpServer({ logger: silentLogger });
    const err = await listen(app, port, '127.0.0.1', { service: 'energy bridge', variable: 'SERVER_PORT' }).catch((e: unknown) => e);
    await app.close();
    expect(err).toBeInstanceOf(PortInUseError);
    expect((err as Error).message).toContain(`port ${port}`);
    expect((err as Error).message).toContain('SERVER_PORT');
  });

  // What `npm start` runs: the compiled services (dist/server, built by the tests' global setup),
  // which also start without tsx compiling the sources first. The demo runs through tsx, as `npm run demo` does.
  const headless = [path.join(repoRoot, 'dist', 'server', 'headless.js')];
  const demo = ['--import', 'tsx', path.join(repoRoot, 'main', 'demo.ts')];
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, args, {
        env: { ...process.env, VITEST: '', LOG_LEVEL: 'silent', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });

  it('`npm start` with the energy port taken keeps the recording sync up and says in one line what to change', async () => {
    const port = await occupy();
    const recordingsPort = await freePort();
    const child = spawn(process.execPath, headless, {
      env: { ...process.env, VITEST: '', LOG_LEVEL: 'silent', SERVER_PORT: String(port), PORT: String(recordingsPort), BIND_HOST: '127.0.0.1', DATA_DIR: path.join(tmp, 'one-taken') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      let up = false;
      for (let i = 0; i < 600 && !up && child.exitCode === null; i++) {
        up = await fetch(`http://127.0.0.1:${recordingsPort}/api/shows`).then((r) => r.ok, () => false);
        if (!up) await new Promise((r) => setTimeout(r, 100));
      }
      expect(up, stderr).toBe(true);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`port ${port} on 127.0.0.1 is already in use, so the energy bridge cannot start`);
      expect(stderr).toContain('SERVER_PORT');
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      clearTimeout(killer);
    }
  }, 90_000);

  it('`npm start` with both ports taken stops with one line each and a non-zero exit', async () => {
    const [energyPort, recordingsPort] = [await occupy(), await occupy()];
    const { code, stderr } = await run(headless, { SERVER_PORT: String(energyPort), PORT: String(recordingsPort), BIND_HOST: '127.0.0.1', DATA_DIR: path.join(tmp, 'data') });
    expect(code).not.toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`port ${energyPort}`);
    expect(lines[0]).toContain('SERVER_PORT');
    expect(lines[1]).toContain(`port ${recordingsPort}`);
    expect(lines[1]).toMatch(/set PORT\b/);
  }, 90_000);

  it('stops the demo with the port and its variable, leaving no data folder behind', async () => {
    const port = await occupy();
    const demoTmp = fs.mkdtempSync(path.join(tmp, 'demo-'));
    // This machine's caches in its temp folder (tsx's compiled files, the demo's ad-break clip) are
    // shared with the demo, not made again in its TMPDIR: that was ~12 of the test's ~15 CPU-seconds.
    const caches = fs.readdirSync(os.tmpdir()).filter((name) => name === `tsx-${os.userInfo().uid}` || /^adcut-clip-[0-9a-f]+\.ts$/.test(name));
    for (const name of caches) fs.symlinkSync(path.join(os.tmpdir(), name), path.join(demoTmp, name));
    const { code, stderr } = await run(demo, { PORT: String(port), SERVER_PORT: '0', TMPDIR: demoTmp });
    expect(code).not.toBe(0);
    expect(stderr).toContain(`port ${port}`);
    expect(stderr).toMatch(/\bPORT\b/);
    // (tsx's cache folder is there; the demo's folders are named home-lan-bridge-demo-*.)
    expect(fs.readdirSync(demoTmp).filter((name) => name.startsWith('home-lan-bridge-demo-'))).toEqual([]);
    // The demo loads its TypeScript through tsx and starts its simulators first: slow on a busy machine.
  }, 60_000);
});
