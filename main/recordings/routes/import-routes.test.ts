import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, fixtureAvailable, FETCHARR_FIXTURE } from '../import/testing.js';
import { startHarness, type Harness } from '../testing/harness.js';

if (!fixtureAvailable()) console.warn(`import route tests skipped: the fetcharr fixture is not at ${FETCHARR_FIXTURE} (set FETCHARR_FIXTURE)`);
const suite = fixtureAvailable() ? describe : describe.skip;

const ROUTES = ['/api/import/preview', '/api/import'] as const;

suite('POST /api/import/preview and /api/import: body validation, CSRF, refusals', () => {
  let h: Harness;
  let copy: ReturnType<typeof copyFixture>;
  let cookie = '';
  let token = '';
  const send = (url: string, payload?: string, opts: { contentType?: string; csrf?: boolean; origin?: string } = {}) =>
    h.service.app.inject({
      method: 'POST',
      url,
      payload,
      headers: {
        ...(opts.csrf === false ? {} : { cookie, 'x-csrf-token': token }),
        ...(payload !== undefined ? { 'content-type': opts.contentType ?? 'application/json' } : {}),
        ...(opts.origin ? { origin: opts.origin } : {}),
      },
      // From the PC itself: importing a folder of the PC is the owner's (owner-gate.test.ts covers a guest).
      remoteAddress: '127.0.0.1',
    });

  beforeAll(async () => {
    copy = copyFixture();
    h = await startHarness({ box: { shows: [] } });
    const res = await h.service.app.inject({ method: 'GET', url: '/api/csrf-token' });
    cookie = String(res.headers['set-cookie']).split(';')[0]!;
    token = res.json().token;
  });
  afterAll(async () => {
    await h.cleanup();
    fs.rmSync(copy.root, { recursive: true, force: true });
  });

  const nothingImported = async () => {
    expect((await h.api.get('/api/shows')).body.shows).toEqual([]);
    expect((await h.api.get('/api/recordings')).body.recordings).toEqual([]);
    expect((await h.api.get('/api/sync-runs')).body.runs).toEqual([]);
    expect((await h.api.get('/api/settings')).body.sources.box_address).toBe('default');
  };

  it.each(ROUTES)('%s refuses bad bodies with a 400 naming the field', async (url) => {
    const good = { dir: copy.config, media_root_to: copy.media };
    const cases: Array<[string, string | undefined]> = [
      [JSON.stringify({ ...good, zzz: 1 }), 'zzz'],
      [JSON.stringify({ media_root_to: copy.media }), 'dir'],
      [JSON.stringify({ ...good, dir: 'relative/config' }), 'dir'],
      [JSON.stringify({ ...good, dir: 42 }), 'dir'],
      [JSON.stringify({ ...good, dir: 'x'.repeat(5000) }), 'dir'],
      [JSON.stringify({ ...good, media_root_from: 'media' }), 'media_root_from'],
      [JSON.stringify({ ...good, media_root_to: path.join(copy.root, 'nope') }), 'media_root_to'],
      [JSON.stringify({ ...good, media_root_to: '/etc' }), 'media_root_to'],
      ['"garbage"', 'body'],
      ['[1]', 'body'],
      ['{"dir":', undefined],
    ];
    for (const [payload, field] of cases) {
      const res = await send(url, payload);
      expect(res.statusCode, `${payload.slice(0, 60)}: ${res.body}`).toBe(400);
      const error = res.json().error;
      expect(error.code).toBeTruthy();
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
      if (field) expect(error.field, payload.slice(0, 60)).toBe(field);
    }
    await nothingImported();
  });

  it.each(ROUTES)('%s refuses a folder that is not fetcharr\'s: 400 not_fetcharr_folder', async (url) => {
    const res = await send(url, JSON.stringify({ dir: copy.media, media_root_to: copy.media }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'not_fetcharr_folder', field: 'dir' });
    expect(res.json().error.message).toContain('has no state.db');
    await nothingImported();
  });

  it.each(ROUTES)('%s needs the CSRF token and a same-origin request', async (url) => {
    const body = JSON.stringify({ dir: copy.config, media_root_to: copy.media });
    expect((await send(url, body, { csrf: false })).statusCode).toBe(403);
    expect((await send(url, body, { origin: 'http://evil.example' })).statusCode).toBe(403);
    await nothingImported();
  });

  it('previews without writing, then imports', async () => {
    const body = JSON.stringify({ dir: copy.config, media_root_to: copy.media });
    const preview = await send('/api/import/preview', body);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().preview.counts.recordings).toMatchObject({ done: 4, files_found: 4, retry: 1 });
    await nothingImported();
    const done = await send('/api/import', body);
    expect(done.statusCode).toBe(200);
    expect(done.json().report.written.recordings).toEqual({ created: 5, replaced: 0, kept: 0 });
    expect((await h.api.get('/api/recordings')).body.recordings).toHaveLength(5);
  });
});

suite('POST /api/import while a sync runs', () => {
  let h: Harness;
  let copy: ReturnType<typeof copyFixture>;
  beforeAll(async () => {
    copy = copyFixture();
    // One slow episode keeps a sync running while the import is asked for.
    h = await startHarness({ box: { shows: [{ title: 'Slow Show', items: [{ id: '5001', title: 'S1 E1 - Slow - Mon 01 Jul', length: 2_000_000, bytesPerSecond: 200_000 }] }] } });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    await h.api.post('/api/shows', { name: 'Slow Show', dest_folder: 'Slow' });
  });
  afterAll(async () => {
    await h.cleanup();
    fs.rmSync(copy.root, { recursive: true, force: true });
  });

  it('answers 409 sync_running and imports nothing; the preview still answers', async () => {
    const started = await h.api.post('/api/sync');
    expect(started.status).toBe(202);
    const body = { dir: copy.config, media_root_to: copy.media };
    const res = await h.api.post('/api/import', body);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'sync_running', run_id: started.body.run.id });
    expect((await h.api.post('/api/import/preview', body)).status).toBe(200);
    expect((await h.api.get('/api/shows')).body.shows.map((s: { name: string }) => s.name)).toEqual(['Slow Show']);
    await h.service.engine.stop();
  });
});
