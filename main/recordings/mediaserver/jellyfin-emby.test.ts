import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { createCloudSimulator, type CloudSimulator } from '../cloud/cloud-simulator.js';
import { ApiClient, startHarness, type Harness } from '../testing/harness.js';
import { createFakeEmbyServer, type FakeEmbyLibrary, type FakeEmbyServer } from './fake-emby-server.js';
import { createFakeMediaServer, type FakeMediaServer } from './fake-media-server.js';

/**
 * Jellyfin and Emby beside Plex (issue 45 item 3), over real sockets on loopback: the discovery
 * datagram goes to the simulator's UDP port, the API key in a header, the refresh after a sync.
 */
const KEY = '0123456789abcdef0123456789abcdef';

describe.each(['jellyfin', 'emby'] as const)('%s as the media server', (kind) => {
  let sim: FakeEmbyServer;
  let h: Harness;
  let guest: ApiClient;
  const tv: FakeEmbyLibrary = { id: kind === 'jellyfin' ? '767bffe4f11c93ef34b805451a696a4e' : '7', name: 'TV Shows', collectionType: 'tvshows', locations: [] };
  const name = kind === 'jellyfin' ? 'Lounge Jellyfin' : 'Lounge Emby';

  beforeAll(async () => {
    sim = createFakeEmbyServer({ kind, apiKey: KEY, name, libraries: [{ id: kind === 'jellyfin' ? 'f137a2dd21bbc1b99aa5c0f6bf02a805' : '3', name: 'Movies', collectionType: 'movies', locations: ['/elsewhere/movies'] }, tv] });
    await sim.start();
    h = await startHarness({
      box: { shows: [sampleShow('Bluey', 730000001, 1, () => 3000)] },
      config: { embyDiscovery: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: sim.discoveryPort, windowMs: 300 } },
    });
    // The server sees the service's media folder at the same path (it runs on this PC).
    tv.locations.push(h.mediaRoot);
    guest = new ApiClient(h.service.url, { address: '127.0.0.2' });
    expect((await h.api.patch('/api/settings', { media_server_kind: kind })).status).toBe(200);
  });
  afterAll(async () => {
    await h.cleanup();
    await sim.stop();
  });

  it('finds the server by its UDP discovery and saves its address; without a key it says where to make one', async () => {
    const res = await h.api.post('/api/discover-media-server');
    expect(res.status).toBe(200);
    expect(res.body.servers).toEqual([{ kind, name, url: sim.url, id: expect.any(String) }]);
    expect(res.body.message).toContain('saved as the media server URL');
    expect(res.body.message).toContain('API key');
    expect(h.service.settings.get().media_server_url).toBe(sim.url);
  });

  it('tests the API key: a missing key names the field, a wrong one is refused without echoing it, the right one names the server', async () => {
    const none = await h.api.post('/api/media-server/test');
    expect(none.status).toBe(409);
    expect(none.body.error.field).toBe('media_server_token');
    expect((await h.api.patch('/api/settings', { media_server_token: 'wrongwrongwrong0' })).status).toBe(200);
    const wrong = await h.api.post('/api/media-server/test');
    expect(wrong.status).toBe(502);
    expect(wrong.body.error.code).toBe('media_server_unauthorized');
    expect(JSON.stringify(wrong.body)).not.toContain('wrongwrongwrong0');
    expect((await h.api.patch('/api/settings', { media_server_token: KEY })).status).toBe(200);
    const ok = await h.api.post('/api/media-server/test');
    expect(ok.status).toBe(200);
    expect(ok.body.message).toContain(name);
    expect(ok.body.message).toMatch(kind === 'jellyfin' ? /^Jellyfin .* 10\.10\.7 at 127\.0\.0\.1:\d+ accepts the API key$/ : /^Emby .* 4\.8\.10\.0 at 127\.0\.0\.1:\d+ accepts the API key$/);
    expect(JSON.stringify(ok.body)).not.toContain(KEY);
    expect((await h.api.get('/api/media-server')).body).toEqual({ configured: true, state: 'answering' });
  });

  it('lists the libraries and saves the one TV library; the libraries route marks it for picking', async () => {
    const res = await h.api.post('/api/discover-media-server');
    expect(res.body.sections).toEqual([
      { id: expect.any(String), title: 'Movies', type: 'movies' },
      { id: tv.id, title: 'TV Shows', type: 'tvshows' },
    ]);
    expect(res.body.message).toContain('library "TV Shows" saved as the TV library');
    expect(h.service.settings.get().media_server_section_id).toBe(tv.id);
    const libs = await h.api.post('/api/media-server/libraries');
    expect(libs.body.libraries.map((l: { title: string; tv: boolean }) => [l.title, l.tv])).toEqual([
      ['Movies', false],
      ['TV Shows', true],
    ]);
    expect(libs.body.selected).toBe(tv.id);
    // The overview names the saved library as the server calls it, not by its id.
    expect((await h.api.get('/api/media-server')).body).toEqual({ configured: true, state: 'answering', library: { id: tv.id, name: 'TV Shows' } });
  });

  it('Plex token detection is refused for it, naming the field', async () => {
    const res = await h.api.post('/api/media-server/detect-token');
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'not_plex', field: 'media_server_token' });
  });

  it('a guest cannot make the PC test the key or list libraries with it: 403, nothing reaches the server', async () => {
    const before = sim.requests();
    for (const route of ['/api/media-server/test', '/api/media-server/libraries']) {
      const res = await guest.post(route);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('owner_only');
    }
    expect(sim.requests()).toBe(before);
  });

  it('after a sync that downloaded, it is told about only the new folder, once; a sync with nothing new asks nothing', async () => {
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Bluey' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'ok' });
    expect(sim.refreshes).toHaveLength(1);
    const paths = (sim.refreshes[0] as { paths: string[] }).paths;
    expect(paths).toHaveLength(1);
    expect(paths[0]!.startsWith(path.join(h.mediaRoot, 'Bluey'))).toBe(true);
    expect(fs.readdirSync(paths[0]!).some((f) => f.endsWith('.ts'))).toBe(true);

    const idle = await h.syncAndWait();
    expect(idle.summary.downloaded).toBe(0);
    expect(idle.summary.media_server_refresh).toBeUndefined();
    expect(sim.refreshes).toHaveLength(1);
  });

  it('when the server names its folders differently (another machine), the whole library scan is asked instead', async () => {
    tv.locations.splice(0, tv.locations.length, '/srv/media/tv');
    h.box.add(0, { ...sampleShow('Bluey', 730000002, 1, () => 3000).items[0]!, title: 'S1 E2 - Episode 2 - Tue 02 Jul' });
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'ok' });
    expect(sim.refreshes.slice(1)).toEqual([{ all: true }]);
  });

  it('a refresh the server refuses is a failed refresh in the run', async () => {
    sim.refreshStatus = 500;
    h.box.add(0, { ...sampleShow('Bluey', 730000003, 1, () => 3000).items[0]!, title: 'S1 E3 - Episode 3 - Wed 03 Jul' });
    const run = await h.syncAndWait();
    sim.refreshStatus = 204;
    expect(run.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'failed' });
    expect(run.summary.media_server_error).toContain('HTTP 500');
  });
});

describe('Plex stays the default: a refresh reaches it once after downloads, never without', () => {
  let plex: FakeMediaServer;
  let h: Harness;
  beforeAll(async () => {
    plex = createFakeMediaServer({ token: 'Plex-Token-0123456789' });
    await plex.start();
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 740000001, 1, () => 3000)] } });
  });
  afterAll(async () => {
    await h.cleanup();
    await plex.stop();
  });

  it('loads without a kind as Plex and refreshes its section once', async () => {
    expect((await h.api.get('/api/settings')).body.settings.media_server_kind).toBe('plex');
    await h.api.patch('/api/settings', { media_server_url: plex.url, media_server_token: 'Plex-Token-0123456789', media_server_section_id: '2', box_address: h.box.descriptionUrl });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Bluey' });
    expect((await h.syncAndWait()).summary).toMatchObject({ downloaded: 1, media_server_refresh: 'ok' });
    expect((await h.syncAndWait()).summary.downloaded).toBe(0);
    expect(plex.refreshes).toEqual(['2']);
  });

  it('a kind outside the three is a 400 naming the field', async () => {
    const res = await h.api.patch('/api/settings', { media_server_kind: 'kodi' });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('media_server_kind');
  });
});

describe('the refresh guard with Jellyfin: a box copy goes only after the refresh succeeded', () => {
  let sim: FakeEmbyServer;
  let cloud: CloudSimulator;
  let h: Harness;
  const show = sampleShow('Bluey', 750000001, 1, () => 3000);
  beforeAll(async () => {
    sim = createFakeEmbyServer({ kind: 'jellyfin', apiKey: KEY });
    await sim.start();
    cloud = createCloudSimulator({ activationCode: 'JF-CODE', pin: '13572468', recordings: () => show.items.map((it) => ({ id: `cloud-${it.id}`, dlnaId: it.id, name: it.title })) });
    await cloud.start();
    h = await startHarness({ box: { shows: [show] }, deps: { cloudTimings: { pingTimeoutMs: 1500, ackTimeoutMs: 5000, requestTimeoutMs: 5000, connectTimeoutMs: 5000 } } });
    const saved = await h.api.patch('/api/settings', {
      box_address: h.box.descriptionUrl,
      media_server_kind: 'jellyfin',
      media_server_url: sim.url,
      media_server_token: KEY,
      cloud_api_url: cloud.apiUrl,
      cloud_ws_url: cloud.wsUrl,
      cloud_activation_code: 'JF-CODE',
      cloud_pin: '13572468',
    });
    expect(saved.status).toBe(200);
    expect((await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Bluey', delete_after_download: true })).status).toBe(201);
  });
  afterAll(async () => {
    await h.cleanup();
    await cloud.stop();
    await sim.stop();
  });

  it('a refused refresh keeps the box copy; an accepted one lets the next download go', async () => {
    sim.refreshStatus = 500;
    const failed = await h.syncAndWait();
    expect(failed.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'failed', box_deleted: 0, box_delete_kept: 1 });
    expect(cloud.deleted).toEqual([]);

    sim.refreshStatus = 204;
    const next = { ...sampleShow('Bluey', 750000002, 1, () => 3000).items[0]!, title: 'S1 E2 - Episode 2 - Tue 02 Jul' };
    h.box.add(0, next);
    const ok = await h.syncAndWait();
    expect(ok.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'ok', box_deleted: 1 });
    expect(cloud.deleted).toEqual(['cloud-750000002']);
    // No library was picked: the whole scan was asked, once.
    expect(sim.refreshes).toEqual([{ all: true }]);
  });
});
