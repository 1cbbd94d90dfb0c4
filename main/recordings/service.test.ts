import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sign as signCookie } from '@fastify/cookie';
import { pino } from 'pino';
import { silentLogger } from '../core/logger.js';
import { recordingConfigFromEnv } from './config.js';
import { DEV_CSRF_SECRET, mintToken } from './csrf.js';
import { unhandledRejectionLogger, installUnhandledRejectionLogging } from '../core/process-guards.js';
import { createRecordingService } from './service.js';
import { ApiClient, tempDir, testConfig, testDataDir } from './testing/harness.js';

describe('configuration and start-up rules', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('reads PORT, DB_PATH, TZ, MEDIA_ROOT and the SSDP interface from the environment', () => {
    const c = recordingConfigFromEnv({ PORT: '9000', DB_PATH: '/srv/state.db', TZ: 'Australia/Perth', MEDIA_ROOT: '/tv', SSDP_INTERFACE: '192.168.1.5' }, '/data');
    expect(c).toMatchObject({ port: 9000, dbPath: '/srv/state.db', configDir: '/srv', tz: 'Australia/Perth', env: { MEDIA_ROOT: '/tv' } });
    expect(c.ssdp).toMatchObject({ address: '239.255.255.250', port: 1900, bindAddress: '192.168.1.5', multicastInterface: '192.168.1.5' });
    expect(recordingConfigFromEnv({}, '/data')).toMatchObject({ port: 8124, dbPath: path.join('/data', 'recordings', 'state.db'), production: false });
  });

  it('passes every variable a setting is seeded from to the settings (MQTT, metrics, allowed hosts too), and nothing else', () => {
    const env = { MEDIA_ROOT: '/tv', MEDIA_SERVER_PREFS_PATH: '/p.xml', MQTT_URL: 'mqtt://127.0.0.1:1883', MQTT_USERNAME: 'u', MQTT_PASSWORD: 'pw', MQTT_TOPIC_PREFIX: 't', MQTT_DISCOVERY_PREFIX: 'd', METRICS_ENABLED: '1', ALLOWED_HOSTS: 'pc.home.lan' };
    const c = recordingConfigFromEnv({ ...env, CSRF_SECRET: 'x'.repeat(40), HOME: '/root' }, '/data');
    expect(c.env).toEqual(env);
  });

  it('refuses the development placeholder or a short CSRF_SECRET in every mode', async () => {
    for (const production of [true, false]) {
      for (const secret of [DEV_CSRF_SECRET, 'short']) {
        const dir = tempDir();
        dirs.push(dir);
        const svc = createRecordingService(testConfig(dir, 1, { production, csrfSecret: secret }), { logger: silentLogger });
        await expect(svc.start()).rejects.toThrow(/CSRF_SECRET/);
        await svc.stop();
      }
    }
  });

  it('without CSRF_SECRET (production too) generates a random secret once, stores it 0600 and reuses it after a restart', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const config = testConfig(dir, 1, { production: true, csrfSecret: undefined });
    const one = createRecordingService(config, { logger: silentLogger });
    await one.start();
    const file = path.join(config.configDir, 'csrf-secret');
    const stored = fs.readFileSync(file, 'utf8').trim();
    expect(stored.length).toBeGreaterThanOrEqual(43); // 32 random bytes
    expect(stored).not.toBe(DEV_CSRF_SECRET);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const api = new ApiClient(one.url);
    expect((await api.post('/api/shows', { name: 'A', dest_folder: 'A' })).status).toBe(201);
    // A token and cookie made with the constant from the source (what a page could forge) are refused.
    const forgedToken = mintToken(DEV_CSRF_SECRET);
    const forged = await fetch(`${one.url}/api/shows`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': forgedToken, cookie: `rs_csrf=${encodeURIComponent(signCookie(forgedToken, DEV_CSRF_SECRET))}` },
      body: JSON.stringify({ name: 'X', dest_folder: 'X' }),
    });
    expect(forged.status).toBe(403);
    await one.stop();

    // Same data folder, new process: the same secret, so the token the client holds still works.
    const two = createRecordingService(config, { logger: silentLogger });
    await two.start();
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(stored);
    const again = new ApiClient(two.url);
    Object.assign(again, { cookie: (api as unknown as { cookie: string }).cookie, token: (api as unknown as { token: string }).token });
    expect((await again.post('/api/shows', { name: 'B', dest_folder: 'B' })).status).toBe(201);
    await two.stop();

    // Another data folder generates its own, different secret.
    const other = tempDir();
    dirs.push(other);
    const three = createRecordingService(testConfig(other, 1, { csrfSecret: undefined }), { logger: silentLogger });
    await three.start();
    expect(fs.readFileSync(path.join(testDataDir(other), 'csrf-secret'), 'utf8').trim()).not.toBe(stored);
    await three.stop();
  });

  it('replaces a truncated stored secret with a new random one and drops a temp file left by a kill', async () => {
    const dir = tempDir();
    dirs.push(dir);
    fs.mkdirSync(testDataDir(dir));
    fs.writeFileSync(path.join(testDataDir(dir), 'csrf-secret'), 'abc');
    fs.writeFileSync(path.join(testDataDir(dir), 'csrf-secret.4242.tmp'), 'half');
    const svc = createRecordingService(testConfig(dir, 1, { csrfSecret: undefined }), { logger: silentLogger });
    await svc.start();
    expect(fs.readFileSync(path.join(testDataDir(dir), 'csrf-secret'), 'utf8').trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.existsSync(path.join(testDataDir(dir), 'csrf-secret.4242.tmp'))).toBe(false);
    await svc.stop();
  });

  it('accepts a fresh token after the secret rotated, rejecting the stale cookie', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const one = createRecordingService(testConfig(dir, 1, { csrfSecret: 'a'.repeat(40) }), { logger: silentLogger });
    await one.start();
    const api = new ApiClient(one.url);
    expect((await api.post('/api/shows', { name: 'A', dest_folder: 'A' })).status).toBe(201);
    await one.stop();

    const two = createRecordingService(testConfig(dir, 1, { csrfSecret: 'b'.repeat(40) }), { logger: silentLogger });
    await two.start();
    const rotated = new ApiClient(two.url);
    Object.assign(rotated, { cookie: (api as unknown as { cookie: string }).cookie, token: (api as unknown as { token: string }).token });
    expect((await rotated.post('/api/shows', { name: 'B', dest_folder: 'B' })).status).toBe(403);
    await rotated.refreshToken(); // sends the stale cookie along: must still mint
    expect((await rotated.post('/api/shows', { name: 'B', dest_folder: 'B' })).status).toBe(201);
    expect((await rotated.get('/api/shows')).body.shows.map((s: { name: string }) => s.name)).toEqual(['A', 'B']);
    await two.stop();
  });

  it('logs an unhandled rejection and keeps running', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (l: string) => void lines.push(l) });
    unhandledRejectionLogger(logger)(new Error('lost promise'));
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: expect.stringContaining('unhandled promise rejection'), err: { message: 'lost promise' } });
    const before = process.listenerCount('unhandledRejection');
    const uninstall = installUnhandledRejectionLogging(logger);
    expect(process.listenerCount('unhandledRejection')).toBe(before + 1);
    uninstall();
    expect(process.listenerCount('unhandledRejection')).toBe(before);
  });
});
