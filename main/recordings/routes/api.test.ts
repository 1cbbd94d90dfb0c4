import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { SECRET_MASK } from '../settings.js';
import { ApiClient, startHarness, type Harness } from '../testing/harness.js';

describe('recording sync HTTP API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      box: { shows: [sampleShow('2 Broke Girls', 903106335, 2, () => 1000), sampleShow('Movies Night', 400000001, 1, () => 1000)] },
      deps: {
        cloudTest: async () => {
          throw new Error('cloud exploded at stage handshake');
        },
      },
    });
  });
  afterAll(async () => h.cleanup());

  it('answers /healthz and sets the security headers on every response', async () => {
    for (const url of ['/healthz', '/api/nope', '/api/shows']) {
      const res = await h.api.get(url);
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-eval'");
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    expect((await h.api.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await h.api.get('/api/nope')).status).toBe(404);
  });

  it('rejects state-changing requests without a valid CSRF token (403), accepts them with one', async () => {
    const noToken = await h.api.request('POST', '/api/shows', { name: 'x', dest_folder: 'x' }, { csrf: false });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error.code).toBe('csrf');
    expect(noToken.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const headerOnly = await fetch(`${h.service.url}/api/sync`, { method: 'POST', headers: { 'x-csrf-token': 'abc.def' } });
    expect(headerOnly.status).toBe(403);
    await h.api.refreshToken();
    const forged = await fetch(`${h.service.url}/api/shows`, { method: 'DELETE', headers: { 'x-csrf-token': 'forged.token' } });
    expect(forged.status).toBe(403);
    expect((await h.api.get('/api/shows')).body.shows).toEqual([]);
  });

  it('creates, lists, updates and deletes followed shows with defaults', async () => {
    const created = await h.api.post('/api/shows', { name: 'Broke Girls', dest_folder: 'Comedy/2 Broke Girls' });
    expect(created.status).toBe(201);
    expect(created.body.show).toMatchObject({ name: 'Broke Girls', season_template: 'Season {season}', enabled: true, ad_mode: 'off', delete_after_download: false });
    const id = created.body.show.id;
    const patched = await h.api.patch(`/api/shows/${id}`, { ad_mode: 'cut', enabled: false });
    expect(patched.body.show).toMatchObject({ id, ad_mode: 'cut', enabled: false, dest_folder: 'Comedy/2 Broke Girls' });
    expect((await h.api.get('/api/shows')).body.shows).toHaveLength(1);
    // No box_address: the box is found over SSDP (loopback responder) and its folders matched.
    const boxShows = await h.api.post('/api/box-shows');
    expect(boxShows.status).toBe(200);
    expect(boxShows.body.boxes[0].shows[0]).toEqual({ id: '60', title: '2 Broke Girls', item_count: 2, followed_show_id: id });
    expect((await h.api.delete(`/api/shows/${id}`)).body).toEqual({ deleted: id });
    expect((await h.api.delete(`/api/shows/${id}`)).status).toBe(404);
  });

  it('rejects bad input and path traversal with a 400 naming the field, and loses nothing', async () => {
    const ok = await h.api.post('/api/shows', { name: 'Movies', dest_folder: 'Movies' });
    const id = ok.body.show.id;
    const cases: Array<[unknown, string]> = [
      [{ dest_folder: '../../etc' }, 'dest_folder'],
      [{ dest_folder: '/etc/cron.d' }, 'dest_folder'],
      [{ dest_folder: 'ok', season_template: '../{season}' }, 'season_template'],
      [{ ad_mode: 'sometimes' }, 'ad_mode'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await h.api.patch(`/api/shows/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid', field });
    }
    const create = await h.api.post('/api/shows', { name: 'Evil', dest_folder: 'a/../../b' });
    expect(create.body.error).toMatchObject({ code: 'invalid', field: 'dest_folder' });
    expect((await h.api.post('/api/shows', { dest_folder: 'x' })).body.error.field).toBe('name');
    expect((await h.api.patch('/api/shows/abc', {})).body.error.field).toBe('id');
    const shows = (await h.api.get('/api/shows')).body.shows;
    expect(shows).toHaveLength(1);
    expect(shows[0]).toMatchObject({ id, dest_folder: 'Movies', ad_mode: 'off', enabled: true });
  });

  it('shows settings with sources and tz, masks secrets, and rejects an invalid cron', async () => {
    const view = (await h.api.get('/api/settings')).body;
    expect(view.settings).toMatchObject({ media_root: h.mediaRoot, sync_cron: '*/30 * * * *', ad_removal_enabled: false, ad_original_retention_days: 7, media_server_prefs_path: '/media-server-preferences.xml' });
    expect(view.sources).toMatchObject({ media_root: 'env', sync_cron: 'default' });
    expect(view.tz).toBe('Australia/Sydney');
    // Only features wired into this service are offered by the pages (ad removal, the media server and
    // cloud integrations are part of every service).
    expect(view.capabilities).toEqual({ ad_scan: true, discover_media_server: true, cloud_test: true, detect_media_server_token: true, delete_from_box: true });
    expect(view.detector_config.source).toBe('bundled');

    const saved = await h.api.patch('/api/settings', { cloud_pin: '4321', media_server_token: 'tok-abc', ad_removal_enabled: true });
    expect(saved.body.settings).toMatchObject({ cloud_pin: SECRET_MASK, media_server_token: SECRET_MASK, ad_removal_enabled: true });
    await h.api.patch('/api/settings', { cloud_pin: SECRET_MASK });
    expect(h.service.settings.get().cloud_pin).toBe('4321');

    const bad = await h.api.patch('/api/settings', { sync_cron: 'every tuesday' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('sync_cron');
    const badRoot = await h.api.patch('/api/settings', { media_root: 'relative/path' });
    expect(badRoot.body.error.field).toBe('media_root');
    expect((await h.api.get('/api/settings')).body.settings.sync_cron).toBe('*/30 * * * *');

    const other = path.join(h.dir, 'other-media');
    fs.mkdirSync(other);
    expect((await h.api.patch('/api/settings', { media_root: other })).status).toBe(200);
    expect((await h.api.get('/api/settings')).body.sources.media_root).toBe('stored');
    await h.api.patch('/api/settings', { media_root: null, ad_removal_enabled: null });
    const reset = (await h.api.get('/api/settings')).body;
    expect(reset.settings.media_root).toBe(h.mediaRoot);
    expect(reset.sources.media_root).toBe('env');
    expect(reset.settings.ad_removal_enabled).toBe(false);
  });

  it('discovers the box over SSDP on loopback and by manual address, and lists its shows', async () => {
    const found = await h.api.post('/api/discover-box');
    expect(found.status).toBe(200);
    expect(found.body.boxes).toEqual([expect.objectContaining({ udn: 'uuid:fetch-box-sim-0001', friendly_name: 'Fetch TV Box' })]);
    expect(found.body.skipped).toHaveLength(2);
    const manual = await h.api.post('/api/discover-box', { address: new URL(h.box.baseUrl).host });
    expect(manual.body.boxes[0].udn).toBe('uuid:fetch-box-sim-0001');
    expect((await h.api.post('/api/discover-box', { address: 'not a host!' })).body.error.field).toBe('address');

    const shows = await h.api.post('/api/box-shows');
    expect(shows.status).toBe(200);
    const movies = (await h.api.get('/api/shows')).body.shows[0];
    expect(shows.body.boxes[0].shows).toEqual([
      { id: '60', title: '2 Broke Girls', item_count: 2, followed_show_id: null },
      { id: '61', title: 'Movies Night', item_count: 1, followed_show_id: movies.id },
    ]);
  });

  it('rate limits discovery with a 429 JSON body and Retry-After', async () => {
    const client = new ApiClient(h.service.url);
    const address = new URL(h.box.baseUrl).host;
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 8; i++) {
      last = await client.post('/api/discover-box', { address });
      statuses.push(last.status);
    }
    // Two discoveries already ran in the previous test from this client address.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
    expect(last!.body.error.code).toBe('rate_limited');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('returns an unhandled error with its message only, never a stack', async () => {
    const res = await h.api.post('/api/cloud-test');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 'internal', message: 'cloud exploded at stage handshake' } });
    expect(JSON.stringify(res.body)).not.toMatch(/\bat .*\.ts/);
  });

  it('answers the manual ad scan with 404 for unknown ids', async () => {
    expect((await h.api.post('/api/recordings/123/ad-scan')).status).toBe(404);
  });
});
