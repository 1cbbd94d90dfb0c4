import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';

type Row = { box_id: string; status: string; error: string | null; file_path: string | null; expected_size: number };

describe('recordings still growing without an in-progress marker', () => {
  let h: Harness;
  const growing = '720000001';
  const stale = '720000002';
  const dropped = '720000003';
  const row = async (id: string) => ((await h.api.get('/api/recordings')).body.recordings as Row[]).find((r) => r.box_id === id)!;
  const getsOf = (id: string) => h.box.requests.filter((r) => r.method === 'GET' && r.path === `/web/${id}`);

  beforeAll(async () => {
    h = await startHarness({
      box: {
        shows: [
          {
            title: 'Live Sport',
            items: [
              // Grows by 64 KiB at every listing and every GET: the body outgrows the listing.
              { id: growing, title: 'S1 E1 - The Final - Sat 06 Jul', length: 300_000, growBytes: 64 * 1024 },
              // The listing lags the body by 100 kB (a box that updates sizes late).
              { id: stale, title: 'S1 E2 - Replay - Sun 07 Jul', length: 400_000, listedSize: 300_000 },
              // Drops mid-body, then grows before the next sync.
              { id: dropped, title: 'S1 E3 - Highlights - Mon 08 Jul', length: 3_000_000, dropAfterBytes: 500_000 },
            ],
          },
        ],
      },
    });
    await h.api.post('/api/shows', { name: 'live sport', dest_folder: 'Sport' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => h.cleanup());

  it('does not mark done a body longer than the listed size: still recording, retried next sync', async () => {
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 0, skipped: 2, failed: 1 });
    for (const id of [growing, stale]) {
      const r = await row(id);
      expect(r).toMatchObject({ status: 'partial', error: 'currently recording' });
      // Stopped at the headers: no bytes of a growing file were saved as a finished recording.
      expect(fs.existsSync(path.join(h.mediaRoot, 'Sport/Season 01', path.basename(r.file_path ?? 'none')))).toBe(false);
    }
    expect(await row(dropped)).toMatchObject({ status: 'partial', error: expect.stringMatching(/^short by/) });
  });

  it('skips an item whose listing size changed since the last sync, without fetching it', async () => {
    const getsBefore = getsOf(growing).length;
    const droppedPartial = `${(await row(dropped)).file_path}.partial`;
    const kept = fs.statSync(droppedPartial).size;
    h.box.update(dropped, { length: 3_500_000 });
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 0, skipped: 3 });
    expect(await row(growing)).toMatchObject({ status: 'skipped', error: 'currently recording' });
    expect(await row(dropped)).toMatchObject({ status: 'skipped', error: 'currently recording', expected_size: 3_500_000 });
    expect(getsOf(growing).length).toBe(getsBefore);
    expect(fs.statSync(droppedPartial).size).toBe(kept);
  });

  it('downloads each one once its size holds still, resuming the bytes kept, byte-identical', async () => {
    h.box.update(growing, { growBytes: undefined });
    h.box.update(stale, { listedSize: undefined });
    const run = await h.syncAndWait();
    // The growing item's listing moved once more (its last growth); the other two finish now.
    expect(run.summary).toMatchObject({ downloaded: 2 });
    const last = await h.syncAndWait();
    expect(last).toMatchObject({ status: 'ok', summary: { downloaded: 1, skipped: 0, failed: 0 } });
    for (const id of [growing, stale, dropped]) {
      const r = await row(id);
      expect(r).toMatchObject({ status: 'done', error: null });
      expect(sha256File(r.file_path!)).toBe(h.box.hash(id));
    }
    expect(getsOf(dropped).at(-1)!.range).toMatch(/^bytes=\d+-$/);
  });
});
