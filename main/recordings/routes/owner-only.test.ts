import fs from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionToken, type OwnerGate } from '../../core/owner-gate.js';
import { startCapture, type CaptureTarget } from '../../core/testing/lan-targets.js';
import { createFakeMediaServer, type FakeMediaServer } from '../mediaserver/fake-media-server.js';
import { ApiClient, startHarness, type Harness } from '../testing/harness.js';

/**
 * The PC's disk and ports are the owner's (issue 37, items 1 and 3), on the recording sync with no
 * passcode set, over real sockets: the service listens on 127.0.0.1; the PC is 127.0.0.1 and a
 * guest on the LAN connects from 127.0.0.2.
 */
const REASON = 'change this from the PC itself, or set a passcode and unlock';
const TOKEN = 'Owner-Plex-Token-0123456789';

/** An owner gate as the composition root hands it over: no passcode, one live session `good-session`. */
const gate = (passcodeSet: () => boolean): OwnerGate => ({
  passcodeSet,
  hasSession: (req: FastifyRequest) => sessionToken(req) === 'good-session',
  registerSessionRoutes: () => undefined,
});

describe('a guest cannot change where the recording sync writes or how it listens', () => {
  let h: Harness;
  let guest: ApiClient;
  let pc: ApiClient;
  let elsewhere: string;

  beforeAll(async () => {
    h = await startHarness({ box: { shows: [] }, deps: { owner: gate(() => false) } });
    pc = h.api;
    guest = new ApiClient(h.service.url, { address: '127.0.0.2' });
    elsewhere = path.join(h.dir, 'elsewhere');
    fs.mkdirSync(elsewhere);
  });
  afterAll(async () => h.cleanup());

  it.each([
    ['media_root', () => elsewhere, 'Media folder'],
    ['media_server_prefs_path', () => path.join(elsewhere, 'Preferences.xml'), 'Plex preferences file'],
    ['allowed_hosts', () => 'evil.example', 'Other names for this computer'],
  ])('PATCH %s from another device: 403 with the plain reason, nothing changed', async (key, value, label) => {
    const before = (await pc.get('/api/settings')).body.settings[key];
    const res = await guest.patch('/api/settings', { [key]: value() });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'owner_only', message: `${label}: ${REASON}`, field: key });
    expect((await pc.get('/api/settings')).body.settings[key]).toBe(before);
    // Back to the default is a change too.
    expect((await pc.patch('/api/settings', { [key]: value() })).status).toBe(200);
    expect((await guest.patch('/api/settings', { [key]: null })).status).toBe(403);
    expect((await pc.get('/api/settings')).body.settings[key]).toBe(value());
  });

  it('other settings stay open to guests, and an owner-only value echoed unchanged passes', async () => {
    const current = (await guest.get('/api/settings')).body.settings;
    const res = await guest.patch('/api/settings', { sync_cron: '15 3 * * *', media_root: current.media_root });
    expect(res.status).toBe(200);
    expect(res.body.settings.sync_cron).toBe('15 3 * * *');
  });

  it('the settings say who may change what, and show another device no path of the PC’s install folder', async () => {
    const mine = (await pc.get('/api/settings')).body;
    const theirs = (await guest.get('/api/settings')).body;
    expect(mine).toMatchObject({ owner: true, owner_only: ['media_root', 'media_server_prefs_path', 'allowed_hosts'] });
    expect(mine.detector_config.path).toMatch(/detector\.ini$/);
    expect(theirs).toMatchObject({ owner: false, owner_only: ['media_root', 'media_server_prefs_path', 'allowed_hosts'], detector_config: { source: 'bundled' } });
    expect(JSON.stringify(theirs)).not.toContain(path.dirname(mine.detector_config.path));
  });

  it('both import routes answer a guest 403 before reading anything', async () => {
    for (const url of ['/api/import/preview', '/api/import']) {
      const res = await guest.post(url, { dir: '/etc' });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'owner_only', message: 'Change this from the PC itself, or set a passcode and unlock' });
      // The PC gets on with it (this folder is not fetcharr's).
      expect((await pc.post(url, { dir: elsewhere })).body.error.code).not.toBe('owner_only');
    }
  });

  it('a guest may test the media folder, not a folder it names', async () => {
    expect((await guest.post('/api/storage/test', { path: '/etc' })).status).toBe(403);
    expect((await guest.post('/api/storage/test')).status).toBe(200);
  });

  it('a guest’s reset would put the owner’s folders back: refused, nothing reset', async () => {
    expect((await guest.post('/api/reset', { confirm: 'RESET' })).status).toBe(403);
    expect((await pc.get('/api/settings')).body.settings.media_root).toBe(elsewhere);
  });

  it('with a passcode session, another device is the owner', async () => {
    const owner = new ApiClient(h.service.url, { address: '127.0.0.2', headers: { authorization: 'Bearer good-session' } });
    expect((await owner.get('/api/settings')).body.owner).toBe(true);
    const res = await owner.patch('/api/settings', { allowed_hosts: 'pc.home.lan' });
    expect(res.status).toBe(200);
    expect(res.body.settings.allowed_hosts).toBe('pc.home.lan');
  });
});

describe('a token read from the PC goes only to the media server its owner set', () => {
  let h: Harness;
  let plex: FakeMediaServer;
  let capture: CaptureTarget;
  let guest: ApiClient;

  const noTokenAtCapture = () => {
    expect(capture.everything()).not.toContain(TOKEN);
    for (const r of capture.requests) expect(r.headers['x-plex-token']).toBeUndefined();
  };

  beforeAll(async () => {
    plex = createFakeMediaServer({ token: TOKEN, name: 'Lounge Plex' });
    await plex.start();
    capture = await startCapture({ body: '{"MediaContainer":{"Directory":[]}}' });
    h = await startHarness({ box: { shows: [] }, config: { gdm: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: plex.gdmPort, windowMs: 300 } } });
    guest = new ApiClient(h.service.url, { address: '127.0.0.2' });
    const prefs = path.join(h.dir, 'Preferences.xml');
    fs.writeFileSync(prefs, `<?xml version="1.0" encoding="utf-8"?>\n<Preferences MachineIdentifier="abc" PlexOnlineToken="${TOKEN}"/>\n`);
    expect((await h.api.patch('/api/settings', { media_server_prefs_path: prefs })).status).toBe(200);
  });
  afterAll(async () => {
    await h.cleanup();
    await plex.stop();
    await capture.close();
  });

  it('a guest points the address at its own listener and asks for detection: refused, no token arrives there', async () => {
    expect((await guest.patch('/api/settings', { media_server_url: capture.url })).status).toBe(200);
    const res = await guest.post('/api/media-server/detect-token');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'owner_only', field: 'media_server_url' });
    expect(res.body.error.message).toMatch(/set from another device, so the token read on this PC is not sent there/);
    await guest.post('/api/discover-media-server');
    expect(capture.requests).toEqual([]);
    noTokenAtCapture();
    expect(h.service.settings.get().media_server_token).toBe('');
    // Not when the owner presses it either: the address is still the guest's.
    expect((await h.api.post('/api/media-server/detect-token')).status).toBe(403);
    noTokenAtCapture();
  });

  it('a server a guest’s discovery saved is not the owner’s; one the PC’s discovery saved is', async () => {
    expect((await h.api.patch('/api/settings', { media_server_url: null })).status).toBe(200);
    expect((await guest.post('/api/discover-media-server')).body.message).toContain('saved as the media server URL');
    expect((await guest.post('/api/media-server/detect-token')).status).toBe(403);
    expect(plex.unauthorized()).toBe(0);
    expect((await h.api.patch('/api/settings', { media_server_url: null })).status).toBe(200);
    expect((await h.api.post('/api/discover-media-server')).body.message).toContain('saved as the media server URL');
    const detected = await guest.post('/api/media-server/detect-token');
    expect(detected.status).toBe(200);
    expect(detected.body).toMatchObject({ detected: true, verified: true, bound_to: plex.url });
  });

  it('the owner’s server, once moved by a guest, loses the token: it never reaches the listener', async () => {
    const moved = await guest.patch('/api/settings', { media_server_url: capture.url });
    expect(moved.body.cleared).toEqual(['media_server_token']);
    expect((await guest.post('/api/media-server/detect-token')).status).toBe(403);
    await guest.post('/api/discover-media-server');
    noTokenAtCapture();
  });
});
