import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFrom } from '../core/testing/request-from.js';
import { CONTROL_OWNER_FIELDS } from './control/settings.js';
import { startEnergyHarness } from './testing/harness.js';

/**
 * The PC's ports are the owner's (issue 37, item 1), on the energy bridge with no passcode set,
 * over real sockets: the bridge listens on 127.0.0.1; the PC is 127.0.0.1 and a guest on the LAN
 * connects from 127.0.0.2.
 */
const REASON = 'change this from the PC itself, or set a passcode and unlock';
type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;

describe('a guest cannot change how the bridge listens, nor import from the PC’s folders', () => {
  let h: Harness;
  let folder: string;
  const pc = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => requestFrom('127.0.0.1', `${h.service.url}${url}`, { method, body, headers });
  const guest = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => requestFrom('127.0.0.2', `${h.service.url}${url}`, { method, body, headers });

  beforeAll(async () => {
    h = await startEnergyHarness();
    // A small sigen-home-bridge data folder: its settings and one history sample.
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sigen-owner-'));
    fs.writeFileSync(path.join(folder, 'settings.json'), JSON.stringify({ sigen: {} }));
    fs.writeFileSync(path.join(folder, 'history.json'), JSON.stringify([{ t: Date.now() - 60_000, pvPower: 1200, gridPower: 0, batteryPower: 0, loadPower: 1200 }]));
  });
  afterAll(async () => {
    await h.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it.each([
    [{ general: { serverPort: 8080 } }, 'general.serverPort', 'Server port'],
    [{ general: { allowedHosts: ['evil.example'] } }, 'general.allowedHosts', 'Extra host names'],
    [{ homekit: { port: 51900 } }, 'homekit.port', 'HomeKit port'],
    [{ homekit: { bind: ['127.0.0.2'] } }, 'homekit.bind', 'Network connections'],
  ])('PUT %j from another device: 403 with the plain reason, nothing changed', async (patch, field, label) => {
    const before = (await pc('GET', '/api/settings')).body;
    const res = await guest('PUT', '/api/settings', patch);
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'owner_only', message: `${label}: ${REASON}`, field });
    expect((await pc('GET', '/api/settings')).body).toEqual(before);
  });

  it('other settings stay open to guests, and the whole settings echoed back with a new currency pass', async () => {
    const current = (await guest('GET', '/api/settings')).body;
    const res = await guest('PUT', '/api/settings', { ...current, general: { ...current.general, currency: 'NZD' } });
    expect(res.status).toBe(200);
    expect(res.body.settings.general.currency).toBe('NZD');
  });

  it('the settings say who may change what; the PC changes the port', async () => {
    const ownerOnly = ['general.serverPort', 'general.allowedHosts', 'homekit.port', 'homekit.bind', ...CONTROL_OWNER_FIELDS];
    expect((await guest('GET', '/api/settings')).body).toMatchObject({ owner: false, ownerOnly });
    expect((await pc('GET', '/api/settings')).body).toMatchObject({ owner: true, ownerOnly });
    const res = await pc('PUT', '/api/settings', { general: { serverPort: 8080 } });
    expect(res.status).toBe(200);
    expect(res.body.restartRequired).toContain('general.serverPort');
    // A guest's reset would put it back: refused whole.
    const reset = await guest('POST', '/api/settings/reset');
    expect(reset.status).toBe(403);
    expect(reset.body.error.field).toBe('general.serverPort');
    expect((await pc('GET', '/api/settings')).body.general).toMatchObject({ serverPort: 8080, currency: 'NZD' });
  });

  it('both import routes answer a guest 403 before reading anything; the PC imports', async () => {
    for (const url of ['/api/import/preview', '/api/import']) {
      const res = await guest('POST', url, { from: 'sigen-home-bridge', dir: folder });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'owner_only', message: 'Change this from the PC itself, or set a passcode and unlock' });
    }
    expect((await guest('GET', '/api/import/status')).body).toEqual({ state: 'idle' });
    expect((await pc('POST', '/api/import/preview', { from: 'sigen-home-bridge', dir: folder })).status).toBe(200);
    expect((await pc('POST', '/api/import', { from: 'sigen-home-bridge', dir: folder })).status).toBe(202);
  });

  it('the import status shows another device no folder of the PC', async () => {
    let mine = (await pc('GET', '/api/import/status')).body;
    for (let i = 0; i < 100 && mine.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      mine = (await pc('GET', '/api/import/status')).body;
    }
    expect(mine).toMatchObject({ state: 'done', dir: folder });
    const theirs = await guest('GET', '/api/import/status');
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ state: 'done', from: 'sigen-home-bridge', status: mine.result.status });
    expect(theirs.body.historyReports).toHaveLength(mine.result.historyReports.length);
    expect(theirs.text).not.toContain(folder);
  });

  it('with a passcode session, another device is the owner (last: it sets a passcode)', async () => {
    const set = await pc('POST', '/api/security/passcode', { passcode: '2468' });
    expect(set.status).toBe(200);
    const bearer = { authorization: `Bearer ${set.body.token}` };
    expect((await guest('GET', '/api/settings', undefined, bearer)).body.owner).toBe(true);
    const res = await guest('PUT', '/api/settings', { general: { allowedHosts: ['pc.home.lan'] } }, bearer);
    expect(res.status).toBe(200);
    expect(res.body.settings.general.allowedHosts).toEqual(['pc.home.lan']);
    expect((await guest('GET', '/api/import/status', undefined, bearer)).body.dir).toBe(folder);
  });
});
