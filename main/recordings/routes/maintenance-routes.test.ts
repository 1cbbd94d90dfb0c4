import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { startHarness, type Harness } from '../testing/harness.js';

/** The storage-path test beside the media root, and the owner's reset, over real HTTP. */
describe('storage test and reset', () => {
  let h: Harness;
  const GiB = 1024 ** 3;
  beforeAll(async () => {
    h = await startHarness({
      box: { shows: [sampleShow('2 Broke Girls', 903106335, 2, () => 1000)] },
      // A disk with 42.5 GiB free, as the page should say it.
      deps: { freeSpace: () => 42.5 * GiB },
    });
  });
  afterAll(async () => h.cleanup());

  it('the media root: exists, writable (a real write, nothing left behind), free space', async () => {
    const res = await h.api.post('/api/storage/test');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path: h.mediaRoot, exists: true, directory: true, writable: true, free_bytes: 42.5 * GiB, problem: null });
    expect(res.body.message).toBe(`${h.mediaRoot} is ready: writable, 42.5 GiB free.`);
    expect(fs.readdirSync(h.mediaRoot).filter((f) => f.startsWith('.hlb-write-test'))).toEqual([]);
  });

  it('a folder that does not exist, a file, a read-only folder and a system folder each say what is wrong', async () => {
    const missing = await h.api.post('/api/storage/test', { path: path.join(h.dir, 'nope') });
    expect(missing.body).toMatchObject({ exists: false, writable: false, free_bytes: null });
    expect(missing.body.message).toContain('does not exist');
    const file = path.join(h.dir, 'a-file');
    fs.writeFileSync(file, 'x');
    const notDir = await h.api.post('/api/storage/test', { path: file });
    expect(notDir.body).toMatchObject({ exists: true, directory: false, writable: false });
    expect(notDir.body.message).toContain('is a file, not a folder');
    const sys = await h.api.post('/api/storage/test', { path: '/etc' });
    expect(sys.body.problem).toContain('system folder');
    expect(sys.body.message).not.toContain('is ready');
    if (process.getuid?.() !== 0) {
      const ro = path.join(h.dir, 'read-only');
      fs.mkdirSync(ro, { mode: 0o555 });
      const res = await h.api.post('/api/storage/test', { path: ro });
      expect(res.body).toMatchObject({ exists: true, directory: true, writable: false });
    } else console.log('read-only folder case not run: root writes anywhere');
  });

  it('bad input is a 400 naming the field', async () => {
    const rel = await h.api.post('/api/storage/test', { path: 'media/tv' });
    expect(rel.status).toBe(400);
    expect(rel.body.error).toMatchObject({ code: 'invalid', field: 'path' });
    const extra = await h.api.post('/api/storage/test', { path: '/x', rm: true });
    expect(extra.status).toBe(400);
    const long = await h.api.post('/api/storage/test', { path: `/${'a'.repeat(2000)}` });
    expect(long.status).toBe(400);
  });

  it('reset wants the typed word, then clears shows, recordings, sync history and settings but keeps the files', async () => {
    await h.api.post('/api/shows', { name: 'broke girls', dest_folder: 'Comedy' });
    await h.api.patch('/api/settings', { sync_cron: '15 3 * * *', download_concurrency: 2 });
    const run = await h.syncAndWait();
    expect(run.summary.downloaded).toBe(2);
    const files = fs.readdirSync(path.join(h.mediaRoot, 'Comedy'), { recursive: true });
    expect(files.length).toBeGreaterThan(0);

    for (const body of [{}, { confirm: 'reset' }, { confirm: 'yes' }]) {
      const refused = await h.api.post('/api/reset', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.field).toBe('confirm');
    }
    expect((await h.api.get('/api/shows')).body.shows).toHaveLength(1);

    const res = await h.api.post('/api/reset', { confirm: 'RESET' });
    expect(res.status).toBe(200);
    expect(res.body.cleared).toEqual({ shows: 1, recordings: 2, sync_runs: 1 });
    expect(res.body.message).toContain('Files in the media folder were not touched');
    expect((await h.api.get('/api/shows')).body.shows).toEqual([]);
    expect((await h.api.get('/api/recordings')).body.recordings).toEqual([]);
    expect((await h.api.get('/api/sync-runs')).body.runs).toEqual([]);
    const settings = (await h.api.get('/api/settings')).body;
    expect(settings.settings.sync_cron).toBe('*/30 * * * *');
    expect(settings.sources.sync_cron).toBe('default');
    expect(settings.settings.download_concurrency).toBe(1);
    // The schedule follows at once.
    expect((await h.api.get('/api/sync')).body.schedule.cron).toBe('*/30 * * * *');
    expect(fs.readdirSync(path.join(h.mediaRoot, 'Comedy'), { recursive: true })).toEqual(files);
  });
});
