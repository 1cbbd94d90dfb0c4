import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { silentLogger } from '../core/logger.js';
import { recordingConfigFromEnv } from './config.js';
import { DEV_CSRF_SECRET } from './csrf.js';
import { unhandledRejectionLogger, installUnhandledRejectionLogging } from './process-guards.js';
import { createRecordingService } from './service.js';
import { ApiClient, tempDir, testConfig } from './testing/harness.js';

describe('configuration and start-up rules', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('reads PORT, DB_PATH, TZ, MEDIA_ROOT and the SSDP interface from the environment', () => {
    const c = recordingConfigFromEnv({ PORT: '9000', DB_PATH: '/srv/state.db', TZ: 'Australia/Perth', MEDIA_ROOT: '/tv', SSDP_INTERFACE: '192.168.1.5' }, '/data');
    expect(c).toMatchObject({ port: 9000, dbPath: '/srv/state.db', configDir: '/srv', tz: 'Australia/Perth', env: { MEDIA_ROOT: '/tv' } });
    expect(c.ssdp).toMatchObject({ address: '239.255.255.250', port: 1900, bindAddress: '192.168.1.5', multicastInterface: '192.168.1.5' });
    expect(recordingConfigFromEnv({}, '/data')).toMatchObject({ port: 8124, dbPath: path.join('/data', 'recordings', 'state.db'), production: false });
  });

  it('refuses to start in production without a real CSRF secret', async () => {
    for (const secret of [undefined, DEV_CSRF_SECRET, 'short']) {
      const dir = tempDir();
      dirs.push(dir);
      const svc = createRecordingService(testConfig(dir, 1, { production: true, csrfSecret: secret }), { logger: silentLogger });
      await expect(svc.start()).rejects.toThrow(/CSRF_SECRET/);
      await svc.stop();
    }
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
