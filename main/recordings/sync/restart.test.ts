import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';

const waitFor = async (what: string, probe: () => boolean, tries = 400) => {
  for (let i = 0; i < tries && !probe(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!probe()) throw new Error(`gave up waiting for ${what}`);
};

describe('restart in the middle of a download', () => {
  let h: Harness;
  const id = '555000111';
  const file = () => path.join(h.mediaRoot, 'Docs/Season 02/Big Docs - S02E07 - The Deep.ts');
  beforeAll(async () => {
    h = await startHarness({
      box: { shows: [{ title: 'Big Docs', items: [{ id, title: 'S2 E7 - The Deep - Sun 05 Jul', length: 3_000_000, bytesPerSecond: 600_000 }] }] },
    });
    await h.api.post('/api/shows', { name: 'big docs', dest_folder: 'Docs' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => h.cleanup());

  it('stops during a slow download, keeps the partial file, and a new service resumes it to an identical file', async () => {
    const started = await h.api.post('/api/sync');
    expect(started.status).toBe(202);
    await waitFor('some bytes on disk', () => fs.existsSync(`${file()}.partial`) && fs.statSync(`${file()}.partial`).size > 200_000);
    await h.service.stop();
    const kept = fs.statSync(`${file()}.partial`).size;
    expect(kept).toBeGreaterThan(200_000);
    expect(kept).toBeLessThan(3_000_000);
    expect(fs.existsSync(file())).toBe(false);

    h.box.update(id, { bytesPerSecond: undefined });
    await h.restart();
    const old = (await h.api.get(`/api/sync-runs/${started.body.run.id}`)).body.run;
    expect(old.status).toBe('error');
    expect(old.summary.error).toMatch(/interrupted/);
    const before = (await h.api.get('/api/recordings')).body.recordings[0];
    expect(before).toMatchObject({ box_id: id, status: 'partial', progress: null });

    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 1, failed: 0 } });
    expect(sha256File(file())).toBe(h.box.hash(id));
    const gets = h.box.requests.filter((r) => r.method === 'GET' && r.path === `/web/${id}`);
    expect(gets.at(-1)).toMatchObject({ status: 206 });
    expect(Number(/bytes=(\d+)-/.exec(gets.at(-1)!.range ?? '')?.[1])).toBeGreaterThanOrEqual(kept);
  });

  it('closes runs a crashed process left running, at the next start, before serving', async () => {
    await h.service.stop();
    const db = new Database(path.join(h.dataDir, 'state.db'));
    db.prepare(`INSERT INTO sync_runs (trigger, started_at, status) VALUES ('cron', 1, 'running')`).run();
    db.close();
    await h.restart();
    const runs = (await h.api.get('/api/sync-runs')).body.runs;
    // Runs are listed by start time: the crashed one (started at epoch ms 1) is the oldest.
    expect(runs.at(-1)).toMatchObject({ trigger: 'cron', status: 'error', started_at: new Date(1).toISOString() });
    expect((await h.api.delete('/api/sync-runs')).body.deleted).toBe(runs.length);
    expect((await h.api.get('/api/sync-runs')).body.runs).toEqual([]);
  });
});
