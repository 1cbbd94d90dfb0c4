import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyService } from '../index.js';
import { sigenFolderCopy } from './testing/sigen-fixture.js';

/**
 * Issue 42: a bridge whose weather place was "Sydney" imports a sigen-home-bridge folder that keeps
 * London's coordinates and no place name. The weather must not go on calling London "Sydney".
 */
const src = sigenFolderCopy();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-import-place-'));
let service: EnergyService;
/** The session the import hands back (it brings the old bridge's passcode). */
let token: string | undefined;

beforeAll(async () => {
  service = createEnergyService({ dataDir, host: '127.0.0.1', port: 0, env: {} }, { logger: silentLogger });
  await service.start();
});

afterAll(async () => {
  await service?.stop();
  for (const d of [src, dataDir]) fs.rmSync(d, { recursive: true, force: true });
});

const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token?: string) => {
  const res = await service.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() };
};

describe('an imported weather place', () => {
  it('clears a place name that would label the imported coordinates, and says so in the preview and the result', async () => {
    expect((await call('PUT', '/api/settings', { weather: { location: 'Sydney', latitude: -33.87, longitude: 151.21 } })).status).toBe(200);

    const preview = await call('POST', '/api/import/preview', { from: 'sigen-home-bridge', dir: src });
    expect(preview.status).toBe(200);
    const note = preview.body.notCarried.find((n: { setting: string }) => n.setting === 'weather (place name)');
    expect(note?.reason).toContain('"Sydney" was cleared');
    expect(note?.reason).toContain('51.5074, -0.1278');

    const started = await call('POST', '/api/import', { from: 'sigen-home-bridge', dir: src });
    expect(started.status).toBe(202);
    token = started.body.token as string | undefined;
    let status = (await call('GET', '/api/import/status', undefined, token)).body;
    for (let i = 0; i < 400 && status.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await call('GET', '/api/import/status', undefined, token)).body;
    }
    expect(status.state).toBe('done');
    const weather = (await call('GET', '/api/settings', undefined, token)).body.weather;
    expect(weather).toMatchObject({ latitude: 51.5074, longitude: -0.1278, location: '' });
  });

  it('keeps the name when the imported coordinates are the ones already set', async () => {
    // After the import the place is London's coordinates; a name typed for them stays on a second import.
    expect((await call('PUT', '/api/settings', { weather: { location: 'London' } }, token)).status).toBe(200);
    const preview = await call('POST', '/api/import/preview', { from: 'sigen-home-bridge', dir: src }, token);
    expect(preview.status).toBe(200);
    expect(preview.body.notCarried.map((n: { setting: string }) => n.setting)).not.toContain('weather (place name)');
  });
});
