import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimShow } from '../box/simulator/box-model.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';

const MiB = 1024 * 1024;

/** 3 shows, 40 items: 2 recording, 1 dropping mid-download, 1 a few bytes short, 1 answering 500. */
function library(): SimShow[] {
  const a = sampleShow('2 Broke Girls', 903106335, 15, (i) => 60_000 + i * 7919, 4);
  const b = sampleShow('Gardening Australia', 585587764, 15, (i) => 50_000 + i * 6007, 33);
  const c = sampleShow('The Chase Australia', 712000100, 10, (i) => 40_000 + i * 5003);
  a.items[3]!.recording = 'size-unknown';
  b.items[5]!.recording = 'head-marker';
  Object.assign(a.items[7]!, { length: 3 * MiB, dropAfterBytes: 512 * 1024 });
  b.items[9]!.listedSize = b.items[9]!.length + 32;
  c.items[4]!.failStatus = 500;
  c.items[0]!.title = 'Special: Celebrity Chase'; // no season/episode: cleaned box title
  return [a, b, c];
}

describe('full sync of a box with 3 shows and 40 items', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: library(), maxPageSize: 7, rawAmpersands: true } });
    for (const show of [
      { name: 'broke girls', dest_folder: 'Comedy/2 Broke Girls', season_template: 'Season {season}' },
      { name: 'GARDENING', dest_folder: 'Gardening Australia', season_template: 'S{season_unpadded}' },
      { name: 'chase', dest_folder: 'The Chase', season_template: '' },
    ]) {
      const res = await h.api.post('/api/shows', show);
      expect(res.status).toBe(201);
    }
    const settings = await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    expect(settings.status).toBe(200);
  });
  afterAll(async () => h.cleanup());

  it('downloads, skips and classifies every item per the spec, with counters and an overall partial', async () => {
    const run = await h.syncAndWait();
    expect(run.status).toBe('partial');
    expect(run.trigger).toBe('manual');
    expect(run.summary).toMatchObject({ seen: 40, downloaded: 36, skipped: 2, failed: 2, boxes: 1 });

    const rows = (await h.api.get('/api/recordings')).body.recordings as Array<Record<string, unknown> & { box_id: string; file_path: string; status: string; size: number }>;
    expect(rows).toHaveLength(40);
    const byId = new Map(rows.map((r) => [r.box_id, r]));
    for (const r of rows) expect(typeof r.box_id).toBe('string');

    expect(byId.get('903106338')).toMatchObject({ status: 'skipped', error: 'currently recording' });
    expect(byId.get('585587769')).toMatchObject({ status: 'skipped', error: 'currently recording' });

    const dropped = byId.get('903106342')!;
    expect(dropped.status).toBe('partial');
    expect(dropped.error).toMatch(/short by \d+ bytes/);
    expect(dropped.size).toBeLessThan(3 * MiB);

    const short = byId.get('585587773')!;
    expect(short).toMatchObject({ status: 'done', error: null, size: h.box.item('585587773').length, expected_size: h.box.item('585587773').length + 32 });

    const failed = byId.get('712000104')!;
    expect(failed).toMatchObject({ status: 'failed', size: null });
    expect(failed.error).toContain('HTTP 500');

    const done = rows.filter((r) => r.status === 'done');
    expect(done).toHaveLength(36);
    for (const r of done) {
      expect(r.progress).toBeNull();
      expect(sha256File(r.file_path)).toBe(h.box.hash(r.box_id));
      expect(fs.statSync(r.file_path).size).toBe(r.size);
    }
    expect(byId.get('903106335')!.file_path).toBe(path.join(h.mediaRoot, 'Comedy/2 Broke Girls/Season 04/2 Broke Girls - S04E01 - Episode 1 & More.ts'));
    expect(byId.get('585587764')!.file_path).toBe(path.join(h.mediaRoot, 'Gardening Australia/S33/Gardening Australia - S33E01 - Episode 1 & More.ts'));
    expect(byId.get('712000100')!.file_path).toBe(path.join(h.mediaRoot, 'The Chase/Special Celebrity Chase.ts'));
    // A skipped item was never fetched (no progress, no file); the HEAD-marker one was only probed.
    expect(h.box.requests.some((r) => r.path === '/web/903106338')).toBe(false);
    expect(h.box.requests.filter((r) => r.path === '/web/585587769').map((r) => r.method)).toEqual(['HEAD']);
  });

  it('resumes the dropped item by Range on the next sync and ends byte-identical', async () => {
    const before = fs.statSync(path.join(h.mediaRoot, 'Comedy/2 Broke Girls/Season 04/2 Broke Girls - S04E08 - Episode 8 & More.ts.partial')).size;
    expect(before).toBeGreaterThan(0);
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ seen: 40, downloaded: 1, skipped: 2, failed: 1, already_done: 36 });
    expect(run.status).toBe('partial');

    const row = (await h.api.get('/api/recordings')).body.recordings.find((r: { box_id: string }) => r.box_id === '903106342');
    expect(row).toMatchObject({ status: 'done', error: null, size: 3 * MiB });
    expect(sha256File(row.file_path)).toBe(h.box.hash('903106342'));
    const resumed = h.box.requests.filter((r) => r.path === '/web/903106342' && r.method === 'GET');
    expect(resumed.at(-1)).toMatchObject({ range: `bytes=${before}-`, status: 206 });
    expect(fs.existsSync(`${row.file_path}.partial`)).toBe(false);
  });

  it('stores the 500 error, leaves finished rows alone and reports ok once the box recovers', async () => {
    h.box.update('712000104', { failStatus: undefined });
    h.box.update('903106338', { recording: undefined });
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 2, failed: 0, skipped: 1 } });
    const runs = (await h.api.get('/api/sync-runs')).body.runs;
    expect(runs.map((r: { status: string }) => r.status)).toEqual(['ok', 'partial', 'partial']);
  });

  it('syncs one show on demand (trigger show) and keeps finished rows untouched', async () => {
    const shows = (await h.api.get('/api/shows')).body.shows;
    const res = await h.api.post(`/api/shows/${shows[2].id}/sync`);
    expect(res.status).toBe(202);
    await h.service.engine.current()?.done;
    const run = (await h.api.get(`/api/sync-runs/${res.body.run.id}`)).body.run;
    expect(run).toMatchObject({ trigger: 'show', show_id: shows[2].id, status: 'ok', summary: { seen: 10, already_done: 10, downloaded: 0 } });
    expect((await h.api.post('/api/shows/999/sync')).status).toBe(404);
  });
});
