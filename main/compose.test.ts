import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComposedOnLoopback } from './compose-on-loopback.js';
import { silentLogger } from './core/logger.js';
import { tempDir } from './recordings/testing/harness.js';

/** Every state-changing route of the recording sync (method, path, a valid-looking body). */
const RECORDING_WRITES: Array<[string, string, unknown?]> = [
  ['PATCH', '/api/settings', { sync_cron: '0 * * * *' }],
  ['POST', '/api/shows', { name: 'Guest Show', dest_folder: 'Guest' }],
  ['PATCH', '/api/shows/1', { paused: true }],
  ['DELETE', '/api/shows/1'],
  ['POST', '/api/sync'],
  ['POST', '/api/shows/1/sync'],
  ['DELETE', '/api/sync-runs'],
  ['POST', '/api/box-shows'],
  ['POST', '/api/discover-box'],
  ['POST', '/api/discover-media-server'],
  ['POST', '/api/media-server/detect-token'],
  ['POST', '/api/cloud-test'],
  ['POST', '/api/recordings/1/ad-scan'],
  ['POST', '/api/recordings/1/delete-from-box'],
  ['POST', '/api/storage/test', { path: '/etc' }],
  ['POST', '/api/reset', { confirm: 'RESET' }],
];

/** A browser-like cookie jar for one host: cookies ignore ports, so both services share it. */
class Browser {
  readonly jar = new Map<string, string>();
  private csrf = '';

  remember(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (value === '' || /max-age=0/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  get cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async send(base: string, method: string, url: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; body: { error?: { code: string } } & Record<string, unknown> }> {
    if (method !== 'GET' && base.endsWith(String(recordingsPort)) && !this.csrf) {
      const t = await fetch(`${base}/api/csrf-token`, { headers: { cookie: this.cookie } });
      this.remember(t);
      this.csrf = ((await t.json()) as { token: string }).token;
    }
    const headers: Record<string, string> = { cookie: this.cookie, ...extra };
    if (this.csrf) headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    this.remember(res);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  }
}

let recordingsPort = 0;

describe('one owner for both services (composed as npm start does, real sockets)', () => {
  let composed: Awaited<ReturnType<typeof startComposedOnLoopback>>;
  let energy: string;
  let recordings: string;
  beforeAll(async () => {
    composed = await startComposedOnLoopback('compose-owner-');
    energy = composed.energy.url;
    recordings = composed.recordings.url;
    recordingsPort = composed.recordings.port;
  });
  afterAll(async () => {
    await composed?.stop();
  });

  it('without a passcode the LAN is trusted: a guest changes recording settings as today', async () => {
    const guest = new Browser();
    expect((await guest.send(recordings, 'GET', '/api/session')).body).toEqual({ passcodeSet: false, unlocked: true, passcodeAvailable: true });
    const res = await guest.send(recordings, 'PATCH', '/api/settings', { sync_cron: '15 * * * *' });
    expect(res.status).toBe(200);
    expect(composed.recordings.settings.get().sync_cron).toBe('15 * * * *');
  });

  it('with the energy passcode set, every recording write answers 401 locked to a guest (CSRF pair and all) and changes nothing', async () => {
    const owner = new Browser();
    const set = await owner.send(energy, 'POST', '/api/security/passcode', { passcode: '4826' });
    expect(set.status).toBe(200);
    const guest = new Browser();
    expect((await guest.send(recordings, 'GET', '/api/session')).body).toEqual({ passcodeSet: true, unlocked: false, passcodeAvailable: true });
    for (const [method, url, body] of RECORDING_WRITES) {
      const res = await guest.send(recordings, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body.error, `${method} ${url}`).toMatchObject({ code: 'locked', message: expect.stringContaining('passcode') });
    }
    expect(composed.recordings.settings.get().sync_cron).toBe('15 * * * *');
    // Reads stay open.
    expect((await guest.send(recordings, 'GET', '/api/recordings')).status).toBe(200);
    // CSRF still applies before anything: a write without the CSRF pair is a 403.
    const noCsrf = await fetch(`${recordings}/api/settings`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"sync_cron":"0 * * * *"}' });
    expect(noCsrf.status).toBe(403);
  });

  it('one unlock on the energy port serves the recording port (the cookie is per host), and a lock on either ends it for both', async () => {
    const owner = new Browser();
    const unlock = await owner.send(energy, 'POST', '/api/unlock', { passcode: '4826' });
    expect(unlock.status).toBe(200);
    expect(owner.jar.has('hlb_session')).toBe(true);
    expect((await owner.send(recordings, 'GET', '/api/session')).body).toEqual({ passcodeSet: true, unlocked: true, passcodeAvailable: true });
    const patch = await owner.send(recordings, 'PATCH', '/api/settings', { sync_cron: '45 * * * *' });
    expect(patch.status).toBe(200);
    expect(composed.recordings.settings.get().sync_cron).toBe('45 * * * *');
    // The same session on the energy port: settings open.
    const energySettings = await owner.send(energy, 'GET', '/api/settings');
    expect(energySettings.body.unlocked).toBe(true);

    const token = owner.jar.get('hlb_session')!;
    const lock = await owner.send(recordings, 'POST', '/api/lock');
    expect(lock.status).toBe(200);
    expect(owner.jar.has('hlb_session')).toBe(false);
    // The revoked token is refused on both ports, as a cookie or a Bearer header.
    const reuse = await new Browser().send(energy, 'PUT', '/api/settings', { battery: { capacityKwh: 9 } }, { cookie: `hlb_session=${token}` });
    expect(reuse.status).toBe(401);
    const bearer = await new Browser().send(recordings, 'PATCH', '/api/settings', { sync_cron: '5 * * * *' }, { authorization: `Bearer ${token}` });
    expect(bearer.status).toBe(401);
  });

  it('an unlock on the recording port opens the energy settings too, with the same lockout per address', async () => {
    const owner = new Browser();
    const wrong = await owner.send(recordings, 'POST', '/api/unlock', { passcode: '0000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'bad_passcode' });
    const ok = await owner.send(recordings, 'POST', '/api/unlock', { passcode: '4826' });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe('string');
    const put = await owner.send(energy, 'PUT', '/api/settings', { battery: { capacityKwh: 9 } });
    expect(put.status).toBe(200);
    expect(composed.energy.settings.get().battery.capacityKwh).toBe(9);
    // The Bearer token from the answer works too (scripts, the energy pages).
    const viaBearer = await new Browser().send(recordings, 'PATCH', '/api/settings', { sync_cron: '30 * * * *' }, { authorization: `Bearer ${String(ok.body.token)}` });
    expect(viaBearer.status).toBe(200);
    // Clearing the passcode on the bridge opens both again.
    expect((await owner.send(energy, 'DELETE', '/api/security/passcode')).status).toBe(200);
    expect((await new Browser().send(recordings, 'PATCH', '/api/settings', { sync_cron: '*/30 * * * *' })).status).toBe(200);
  });

  it('the recordings setup can set the passcode on its own port: it then gates the energy bridge too, and keeps that browser unlocked', async () => {
    const owner = new Browser();
    const set = await owner.send(recordings, 'POST', '/api/security/passcode', { passcode: '7391' });
    expect(set.status).toBe(200);
    expect(composed.energy.security.passcodes.isSet).toBe(true);
    expect((await new Browser().send(energy, 'PUT', '/api/settings', { battery: { capacityKwh: 3 } })).status).toBe(401);
    expect((await owner.send(energy, 'PUT', '/api/settings', { battery: { capacityKwh: 3 } })).status).toBe(200);
    // A guest cannot change it from the recording port either.
    expect((await new Browser().send(recordings, 'POST', '/api/security/passcode', { passcode: '1111' })).status).toBe(401);
    expect((await owner.send(recordings, 'DELETE', '/api/security/passcode')).status).toBe(200);
  });
});

describe('the recording sync on its own (no owner gate) trusts the LAN as before', () => {
  it('has no passcode to offer, no unlock route, and writes pass', async () => {
    const { createRecordingService } = await import('./recordings/service.js');
    const { testConfig, ApiClient } = await import('./recordings/testing/harness.js');
    const dir = tempDir('alone-');
    const service = createRecordingService(testConfig(dir, 1), { logger: silentLogger });
    await service.start();
    try {
      const api = new ApiClient(service.url);
      expect((await api.get('/api/session')).body).toEqual({ passcodeSet: false, unlocked: true, passcodeAvailable: false });
      expect((await api.post('/api/unlock', { passcode: '1234' })).status).toBe(404);
      expect((await api.patch('/api/settings', { sync_cron: '0 * * * *' })).status).toBe(200);
    } finally {
      await service.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
