import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startBanner, startCapture, startSilent, withoutPorts, type CaptureTarget, type Target } from '../../core/testing/lan-targets.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { createCloudSimulator, type CloudSimulator } from '../cloud/cloud-simulator.js';
import { createFakeMediaServer, type FakeMediaServer } from '../mediaserver/fake-media-server.js';
import { startHarness, type Harness } from '../testing/harness.js';

/**
 * A guest on the LAN against the recording service, over real sockets: the owner's stored secrets
 * never reach a listener of the guest's choosing, and probing routes cannot tell a closed port, a
 * silent host and a service that does not speak HTTP apart.
 */
const TOKEN = 'Owner-Plex-Token-0123456789';
const CODE = 'owner-activation-7788';
const PIN = '4321';

describe('a guest cannot send the owner’s secrets away', () => {
  let plex: FakeMediaServer;
  let cloud: CloudSimulator;
  let capture: CaptureTarget;
  let h: Harness;

  beforeAll(async () => {
    plex = createFakeMediaServer({ token: TOKEN, name: 'Lounge Plex' });
    await plex.start();
    cloud = createCloudSimulator({ activationCode: CODE, pin: PIN, recordings: () => [] });
    await cloud.start();
    capture = await startCapture({ status: 401, body: '{"MediaContainer":{"Directory":[{"key":"1","title":"stolen","type":"show"}]}}' });
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 730000001, 1, () => 3000)] } });
    const saved = await h.api.patch('/api/settings', {
      media_server_url: plex.url,
      media_server_token: TOKEN,
      cloud_api_url: cloud.apiUrl,
      cloud_ws_url: cloud.wsUrl,
      cloud_activation_code: CODE,
      cloud_pin: PIN,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.cleared).toEqual([]);
  });
  afterAll(async () => {
    await h.cleanup();
    await plex.stop();
    await cloud.stop();
    await capture.close();
  });

  const noSecretAtCapture = () => {
    const seen = capture.everything();
    for (const secret of [TOKEN, CODE, `pin=${PIN}`]) expect(seen).not.toContain(secret);
    for (const r of capture.requests) expect(r.headers['x-plex-token']).toBeUndefined();
  };

  it('POST discover-media-server {url: guest listener} does not attach the stored token', async () => {
    const res = await h.api.post('/api/discover-media-server', { url: capture.url });
    expect(capture.requests.length).toBe(1);
    noSecretAtCapture();
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('media_server_unauthorized');
    // The owner's configured server still gets it.
    const own = await h.api.post('/api/discover-media-server');
    expect(own.body.sections).toHaveLength(2);
  });

  it('PATCH media_server_url to the listener clears the token and says so; the discovery then sends none', async () => {
    const patched = await h.api.patch('/api/settings', { media_server_url: capture.url });
    expect(patched.status).toBe(200);
    expect(patched.body.cleared).toEqual(['media_server_token']);
    expect(patched.body.message).toMatch(/Media server token was cleared: a secret is only sent to the address it was given for/);
    expect(patched.body.settings.media_server_token).toBe('');
    await h.api.post('/api/discover-media-server');
    await h.api.post('/api/discover-media-server', { url: capture.url });
    noSecretAtCapture();
    // Putting the URL back does not bring the token back: the owner enters it again.
    const back = await h.api.patch('/api/settings', { media_server_url: plex.url });
    expect(back.body.settings.media_server_token).toBe('');
    expect(h.service.settings.get().media_server_token).toBe('');
  });

  it('a new destination given together with its secret keeps it, bound to the new destination', async () => {
    const both = await h.api.patch('/api/settings', { media_server_url: `${plex.url}/`, media_server_token: TOKEN });
    expect(both.body.cleared).toEqual([]);
    // Same scheme, host and port with another path: the same destination, the token stays.
    const samePlace = await h.api.patch('/api/settings', { media_server_url: plex.url });
    expect(samePlace.body.cleared).toEqual([]);
    expect(h.service.settings.secretFor('media_server_token', plex.url)).toBe(TOKEN);
    expect(h.service.settings.secretFor('media_server_token', capture.url)).toBe('');
  });

  it('PATCH cloud_api_url to the listener clears the activation code and PIN; cloud-test sends neither', async () => {
    const patched = await h.api.patch('/api/settings', { cloud_api_url: capture.url });
    expect(patched.body.cleared).toEqual(['cloud_activation_code', 'cloud_pin']);
    expect(patched.body.message).toMatch(/were cleared/);
    const test = await h.api.post('/api/cloud-test');
    expect(test.status).toBe(502);
    expect(test.body.error.message).toMatch(/not set up: set cloud_activation_code, cloud_pin/);
    noSecretAtCapture();
    // The guest puts the URL back: the secrets are gone, nothing signs in.
    await h.api.patch('/api/settings', { cloud_api_url: cloud.apiUrl });
    const again = await h.api.post('/api/cloud-test');
    expect(again.status).toBe(502);
    expect(cloud.refusedSignIns()).toBe(0);
  });

  it('moving the cloud channel (WebSocket URL) clears them too; given again with the URLs, they work', async () => {
    await h.api.patch('/api/settings', { cloud_activation_code: CODE, cloud_pin: PIN });
    expect((await h.api.post('/api/cloud-test')).body.ok).toBe(true);
    const moved = await h.api.patch('/api/settings', { cloud_ws_url: capture.url.replace('http:', 'ws:') });
    expect(moved.body.cleared).toEqual(['cloud_activation_code', 'cloud_pin']);
    noSecretAtCapture();
  });
});

describe('probing routes say the same for a closed port, a silent host and a non-HTTP service', () => {
  let h: Harness;
  let targets: Target[];
  let banner: Target;
  let silent: Target;
  let closed: Target;

  beforeAll(async () => {
    [banner, silent, closed] = await Promise.all([startBanner(), startSilent(), closedPort()]);
    targets = [banner, silent, closed];
    // A silent host is given up on after 1 s, not the clients' own 5-10 s (box, media server, cloud).
    h = await startHarness({ box: { shows: [] }, deps: { cloudTimings: { requestTimeoutMs: 3000 }, outboundTimeoutMs: 1000 } });
  });
  afterAll(async () => {
    await h.cleanup();
    await Promise.all(targets.map((t) => t.close()));
  });

  const ports = () => targets.map((t) => t.port);

  it('discover-media-server {url}: one answer for all three', async () => {
    const answers = await Promise.all(targets.map((t) => h.api.post('/api/discover-media-server', { url: t.url })));
    const shapes = answers.map((a) => withoutPorts(JSON.stringify({ status: a.status, body: a.body }), ports()));
    expect(new Set(shapes).size).toBe(1);
    expect(answers[0]!.status).toBe(502);
    expect(answers[0]!.body.error).toEqual({ code: 'no_http_answer', message: `no HTTP answer from 127.0.0.1:${banner.port}` });
  }, 20_000);

  it('discover-box {address}: one answer for all three', async () => {
    const answers = await Promise.all(targets.map((t) => h.api.post('/api/discover-box', { address: `127.0.0.1:${t.port}` })));
    const shapes = answers.map((a) => withoutPorts(JSON.stringify({ status: a.status, body: a.body }), ports()));
    expect(new Set(shapes).size).toBe(1);
    expect(answers[0]!.status).toBe(502);
    expect(answers[0]!.body.error.message).toContain(`no HTTP answer from 127.0.0.1:${banner.port}`);
  }, 20_000);

  it('cloud-test: one answer for all three (the cloud URL set to each, with the secrets given along)', async () => {
    const answers = [];
    for (const t of targets) {
      const saved = await h.api.patch('/api/settings', { cloud_api_url: t.url, cloud_ws_url: t.url.replace('http:', 'ws:'), cloud_activation_code: CODE, cloud_pin: PIN });
      expect(saved.body.cleared).toEqual([]);
      answers.push(await h.api.post('/api/cloud-test'));
    }
    const shapes = answers.map((a) => withoutPorts(JSON.stringify({ status: a.status, body: a.body }), ports()));
    expect(new Set(shapes).size).toBe(1);
    expect(answers[0]!.body.error).toMatchObject({ code: 'cloud_failed', message: `cannot reach the cloud: no HTTP answer from 127.0.0.1:${banner.port}` });
  }, 30_000);

  it('an internet address is not a LAN device: refused before any connection, naming the field', async () => {
    const res = await h.api.post('/api/discover-media-server', { url: 'http://93.184.216.34:32400/' });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('url');
    expect(res.body.error.message).toMatch(/internet address/);
  });
});

describe('token detection reads only the configured preferences file', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [] } });
  });
  afterAll(async () => {
    await h.cleanup();
  });

  it('refuses a path in the body (400 naming the unknown field)', async () => {
    const res = await h.api.post('/api/media-server/detect-token', { path: '/etc/shadow' });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('path');
    expect(res.body.error.message).toMatch(/unknown field "path"/);
  });

  it('cannot tell /etc/shadow from a missing file, or from a file without a token', async () => {
    const noToken = path.join(h.dir, 'not-prefs.xml');
    fs.writeFileSync(noToken, '<Other/>');
    const answers = [];
    for (const file of ['/etc/shadow', path.join(h.dir, 'missing', 'Preferences.xml'), noToken]) {
      expect((await h.api.patch('/api/settings', { media_server_prefs_path: file })).status).toBe(200);
      const res = await h.api.post('/api/media-server/detect-token');
      answers.push(JSON.stringify({ status: res.status, body: res.body }).split(file).join('FILE'));
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toContain('"status":422');
    expect(answers[0]).toContain('token_not_found');
  });
});

describe('the box is reached through the gate as a LAN device', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [] } });
  });
  afterAll(async () => {
    await h.cleanup();
  });

  it('a box address the gate refuses (0.0.0.0, which would reach this very machine) is a 400 naming address, nothing fetched', async () => {
    const port = new URL(h.box.descriptionUrl).port;
    const res = await h.api.post('/api/discover-box', { address: `0.0.0.0:${port}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'address' });
    expect(res.body.error.message).toMatch(/refused: 0\.0\.0\.0 is not an address a connection can go to/);
    // The same box by its loopback address is found.
    const ok = await h.api.post('/api/discover-box', { address: `127.0.0.1:${port}` });
    expect(ok.body.boxes).toHaveLength(1);
  });
});
