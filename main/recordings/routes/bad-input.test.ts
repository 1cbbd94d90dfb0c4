import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { startHarness, type Harness } from '../testing/harness.js';

/** Every state-changing route of the recordings API, and the body it documents (`none`: no body). */
const ROUTES: Array<{ method: 'POST' | 'PATCH' | 'DELETE'; url: string; body: 'none' | 'show' | 'show-patch' | 'settings' | 'discover' }> = [
  { method: 'POST', url: '/api/sync', body: 'none' },
  { method: 'POST', url: '/api/shows/SHOW/sync', body: 'none' },
  { method: 'DELETE', url: '/api/sync-runs', body: 'none' },
  { method: 'POST', url: '/api/box-shows', body: 'none' },
  { method: 'POST', url: '/api/discover-media-server', body: 'none' },
  { method: 'POST', url: '/api/cloud-test', body: 'none' },
  { method: 'POST', url: '/api/recordings/903106335/ad-scan', body: 'none' },
  { method: 'POST', url: '/api/recordings/903106335/delete-from-box', body: 'none' },
  { method: 'POST', url: '/api/media-server/detect-token', body: 'none' },
  { method: 'DELETE', url: '/api/shows/SHOW', body: 'none' },
  { method: 'POST', url: '/api/discover-box', body: 'discover' },
  { method: 'POST', url: '/api/shows', body: 'show' },
  { method: 'PATCH', url: '/api/shows/SHOW', body: 'show-patch' },
  { method: 'PATCH', url: '/api/settings', body: 'settings' },
];

/** Bad bodies every route must refuse: [label, content-type, payload, expected field (undefined: no field applies)]. */
const BAD_BODIES: Array<[string, string, string, string | undefined]> = [
  ['malformed JSON', 'application/json', '{"name": "x",', undefined],
  ['a JSON string', 'application/json', '"garbage"', 'body'],
  ['a JSON array', 'application/json', '[1, 2, 3]', 'body'],
  ['a JSON number', 'application/json', '42', 'body'],
  ['an unknown field', 'application/json', '{"zzz_unknown": 1}', 'zzz_unknown'],
  ['plain text', 'text/plain', 'sync please', 'body'],
  ['XML', 'application/xml', '<sync/>', undefined],
  ['a proto key', 'application/json', '{"__proto__": {"admin": true}}', undefined],
];

/** Bad field values per documented body: [body, field]. */
const BAD_FIELDS: Record<string, Array<[unknown, string]>> = {
  discover: [
    [{ address: 'not a host!' }, 'address'],
    [{ address: 42 }, 'address'],
    [{ address: 'x'.repeat(300) }, 'address'],
  ],
  show: [
    [{ dest_folder: 'x' }, 'name'],
    [{ name: 'x' }, 'dest_folder'],
    [{ name: 'x', dest_folder: '../etc' }, 'dest_folder'],
    [{ name: 'x', dest_folder: 'x', ad_mode: 'always' }, 'ad_mode'],
    [{ name: 'x', dest_folder: 'x', enabled: 'yes' }, 'enabled'],
    [{ name: '', dest_folder: 'x' }, 'name'],
    [{ name: 'x'.repeat(5000), dest_folder: 'x' }, 'name'],
  ],
  'show-patch': [
    [{ season_template: '/abs' }, 'season_template'],
    [{ delete_after_download: 1 }, 'delete_after_download'],
    [{ name: null }, 'name'],
  ],
  settings: [
    [{ sync_cron: 'sometimes' }, 'sync_cron'],
    [{ media_root: 'relative' }, 'media_root'],
    [{ download_concurrency: 99 }, 'download_concurrency'],
    [{ free_space_margin_mb: -1 }, 'free_space_margin_mb'],
    [{ size_tolerance_bytes: '1' }, 'size_tolerance_bytes'],
    [{ box_address: 'a b/c' }, 'box_address'],
  ],
  none: [],
};

/** Bad path parameters: [method, url, field]. */
const BAD_PARAMS: Array<['POST' | 'PATCH' | 'DELETE' | 'GET', string, string]> = [
  ['POST', '/api/shows/abc/sync', 'id'],
  ['POST', '/api/shows/-1/sync', 'id'],
  ['PATCH', '/api/shows/1.5', 'id'],
  ['DELETE', '/api/shows/0', 'id'],
  ['GET', '/api/sync-runs/abc', 'id'],
  ['GET', '/api/sync-runs?limit=abc', 'limit'],
  ['GET', '/api/sync-runs?limit=1&zzz=1', 'zzz'],
  ['POST', `/api/recordings/${'9'.repeat(100)}/ad-scan`, 'box_id'],
];

describe('bad input corpus over every recordings route', () => {
  let h: Harness;
  let cookie = '';
  let token = '';
  let showId = 0;
  let ip = 1;
  // Each request comes from its own loopback address so the per-client rate limits never answer first.
  const send = (method: string, url: string, payload?: string, contentType?: string) =>
    h.service.app.inject({
      method: method as 'POST',
      url: url.replace('SHOW', String(showId)),
      payload,
      headers: { cookie, 'x-csrf-token': token, ...(contentType ? { 'content-type': contentType } : {}) },
      remoteAddress: `127.0.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`,
    });

  beforeAll(async () => {
    h = await startHarness({ box: { shows: [sampleShow('2 Broke Girls', 903106335, 1, () => 1000)] } });
    const res = await h.service.app.inject({ method: 'GET', url: '/api/csrf-token' });
    cookie = String(res.headers['set-cookie']).split(';')[0]!;
    token = res.json().token;
    const created = await send('POST', '/api/shows', JSON.stringify({ name: 'broke', dest_folder: 'Comedy' }), 'application/json');
    expect(created.statusCode).toBe(201);
    showId = created.json().show.id;
  });
  afterAll(async () => h.cleanup());

  const assertNothingChanged = async () => {
    expect(h.service.engine.current()).toBeNull();
    expect((await h.api.get('/api/sync-runs')).body.runs).toEqual([]);
    const shows = (await h.api.get('/api/shows')).body.shows;
    expect(shows).toHaveLength(1);
    expect(shows[0]).toMatchObject({ id: showId, name: 'broke', dest_folder: 'Comedy', enabled: true });
    expect((await h.api.get('/api/settings')).body.sources).toMatchObject({ sync_cron: 'default', box_address: 'default', download_concurrency: 'default' });
  };

  it.each(ROUTES)('$method $url refuses malformed and unexpected bodies with a 4xx naming the field', async (route) => {
    for (const [label, type, payload, field] of BAD_BODIES) {
      const res = await send(route.method, route.url, payload, type);
      expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
      const error = res.json().error;
      expect(error.code, label).toBeTruthy();
      if (field) expect(error.field, `${label}: ${res.body}`).toBe(field);
    }
    for (const [body, field] of BAD_FIELDS[route.body]!) {
      const res = await send(route.method, route.url, JSON.stringify(body), 'application/json');
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid', field });
    }
    await assertNothingChanged();
  });

  it.each(ROUTES)('$method $url answers an oversized body with 413', async (route) => {
    const res = await send(route.method, route.url, JSON.stringify({ name: 'x'.repeat(70 * 1024) }), 'application/json');
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('body_too_large');
  });

  it('refuses bad path parameters and query strings with a 400 naming the field', async () => {
    for (const [method, url, field] of BAD_PARAMS) {
      const res = await send(method, url);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
      expect(res.json().error.field, `${method} ${url}`).toBe(field);
    }
    await assertNothingChanged();
  });

  it('POST /api/box-shows and POST /api/sync with garbage are 400, not a box error, and start nothing', async () => {
    const boxShows = await send('POST', '/api/box-shows', '{"garbage": true}', 'application/json');
    expect(boxShows.statusCode).toBe(400);
    expect(boxShows.json().error).toMatchObject({ code: 'invalid', field: 'garbage' });
    const sync = await send('POST', '/api/sync', '{"show_id": 1}', 'application/json');
    expect(sync.statusCode).toBe(400);
    expect(sync.json().error).toMatchObject({ code: 'invalid', field: 'show_id' });
    await assertNothingChanged();
    // The documented empty forms still work.
    expect((await send('POST', '/api/box-shows')).statusCode).toBe(200);
    expect((await send('POST', '/api/box-shows', '{}', 'application/json')).statusCode).toBe(200);
  });
});
