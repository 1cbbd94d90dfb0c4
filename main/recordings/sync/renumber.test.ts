import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';

type Row = { box_id: string; status: string; file_path: string; box_title: string; recorded_start: string | null };

describe('a box that renumbers its ids between syncs', () => {
  let h: Harness;
  const gets = () => h.box.requests.filter((r) => r.method === 'GET').length;
  const rows = async () => (await h.api.get('/api/recordings')).body.recordings as Row[];
  const tsFiles = () => fs.readdirSync(h.mediaRoot, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));

  beforeAll(async () => {
    const bluey = sampleShow('Bluey', 700000001, 3, (i) => 40_000 + i * 1000);
    bluey.items.forEach((it, i) => (it.recordedStart = `Monday 0${i + 1} July 2024 07:00 AM`));
    // Another show with the very same episode titles: never confused with Bluey's.
    h = await startHarness({ box: { shows: [bluey, sampleShow('Bingo', 710000001, 3, () => 30_000)] } });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids/Bluey' });
    await h.api.post('/api/shows', { name: 'bingo', dest_folder: 'Kids/Bingo' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    const first = await h.syncAndWait();
    expect(first.summary).toMatchObject({ downloaded: 6, failed: 0 });
  });
  afterAll(async () => h.cleanup());

  it('does not download a known recording again under its new id (ids swap and shift)', async () => {
    const before = gets();
    const ids: Record<string, string> = { '700000001': '700000003', '700000002': '700000001', '700000003': '700000009' };
    h.box.renumber((id) => ids[id] ?? id);
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 0, already_done: 6, renumbered: 3 } });
    expect(gets()).toBe(before);
    const all = await rows();
    expect(all.map((r) => r.box_id).sort()).toEqual(['700000001', '700000003', '700000009', '710000001', '710000002', '710000003']);
    for (const r of all) {
      expect(r.status).toBe('done');
      // Each row now names the id its recording has on the box: its file has that item's bytes.
      expect(sha256File(r.file_path)).toBe(h.box.hash(r.box_id));
    }
    expect(tsFiles()).toHaveLength(6);
    expect(tsFiles().some((f) => f.includes('['))).toBe(false);
  });

  it('downloads a new recording that took an old id instead of calling it already done', async () => {
    h.box.renumber((id) => (id === '700000001' ? '700000011' : id));
    h.box.add(0, { id: '700000001', title: 'S1 E4 - Brand New - Thu 04 Jul', length: 45_000, recordedStart: 'Thursday 04 July 2024 07:00 AM' });
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 1, already_done: 6, renumbered: 1 } });
    const byId = new Map((await rows()).map((r) => [r.box_id, r]));
    const fresh = byId.get('700000001')!;
    expect(fresh).toMatchObject({ status: 'done', box_title: 'S1 E4 - Brand New - Thu 04 Jul', recorded_start: 'Thursday 04 July 2024 07:00 AM' });
    expect(fresh.file_path).toBe(path.join(h.mediaRoot, 'Kids/Bluey/Season 01/Bluey - S01E04 - Brand New.ts'));
    expect(sha256File(fresh.file_path)).toBe(h.box.hash('700000001'));
    // The recording that had that id followed it to 700000011, its file untouched.
    expect(sha256File(byId.get('700000011')!.file_path)).toBe(h.box.hash('700000011'));
    expect(tsFiles()).toHaveLength(7);
  });

  it('moves a row aside when its id now names another recording and its own is gone from the box', async () => {
    const old = (await rows()).find((r) => r.box_id === '700000009')!;
    h.box.remove('700000009');
    h.box.add(0, { id: '700000009', title: 'S1 E5 - Another One - Fri 05 Jul', length: 41_000, recordedStart: 'Friday 05 July 2024 07:00 AM' });
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 1, ids_reused: 1 });
    const byId = new Map((await rows()).map((r) => [r.box_id, r]));
    expect(byId.get('700000009')).toMatchObject({ status: 'done', box_title: 'S1 E5 - Another One - Fri 05 Jul' });
    expect(byId.get('700000009~1')).toMatchObject({ status: 'done', box_title: old.box_title, file_path: old.file_path });
    expect(fs.existsSync(old.file_path)).toBe(true);
    expect(tsFiles().some((f) => f.includes('['))).toBe(false);
  });

  it('still tells apart the same title recorded on different days', async () => {
    h.box.add(0, { id: '700000020', title: 'S1 E4 - Brand New - Thu 04 Jul', length: 45_500, recordedStart: 'Thursday 11 July 2024 07:00 AM' });
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 1 });
    const repeat = (await rows()).find((r) => r.box_id === '700000020')!;
    // A second recording of the same episode: kept beside the first, not mistaken for it.
    expect(repeat.file_path).toBe(path.join(h.mediaRoot, 'Kids/Bluey/Season 01/Bluey - S01E04 - Brand New [700000020].ts'));
    expect(sha256File(repeat.file_path)).toBe(h.box.hash('700000020'));
  });
});
