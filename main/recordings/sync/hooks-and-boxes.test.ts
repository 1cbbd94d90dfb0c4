import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoxSimulator, type BoxSimulator } from '../box/simulator/box-simulator.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import type { RecordingRow } from '../store/recordings-store.js';
import { startHarness, type Harness } from '../testing/harness.js';

describe('two boxes on the LAN, and the seams for later pipelines', () => {
  let h: Harness;
  let second: BoxSimulator;
  const refreshed: number[] = [];
  const afterDone: string[] = [];
  beforeAll(async () => {
    second = createBoxSimulator({ shows: [sampleShow('Bluey', 800000001, 3, () => 5000)], udn: 'uuid:box-two', friendlyName: 'Bedroom' });
    await second.start();
    h = await startHarness({
      box: { shows: [sampleShow('Bluey', 700000001, 2, () => 4000), sampleShow('Not Followed', 600000001, 2, () => 10)] },
      extraLocations: () => [second.descriptionUrl],
      deps: {
        hooks: {
          mediaServer: { refreshLibrary: async () => void refreshed.push(Date.now()) },
          afterDone: async (row: RecordingRow) => {
            afterDone.push(row.box_id);
            if (row.box_id === '700000001') throw new Error('ad removal crashed');
          },
        },
      },
    });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids/Bluey' });
  });
  afterAll(async () => {
    await h.cleanup();
    await second.stop();
  });

  it('with two boxes answering discovery syncs none and names both; box_address chooses; the same name on both gets the box id appended', async () => {
    const refused = await h.syncAndWait();
    expect(refused.status).toBe('error');
    expect(refused.summary.error).toContain('2 recording boxes answered discovery');
    expect(refused.summary.error).toContain(new URL(h.box.baseUrl).host);
    expect(refused.summary.error).toContain(new URL(second.baseUrl).host);
    expect(refused.summary.error).toContain('box_address');
    expect((await h.api.get('/api/recordings')).body.recordings).toEqual([]);
    expect(h.box.requests).toEqual([]);
    expect(second.requests).toEqual([]);

    expect((await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl })).status).toBe(200);
    const one = await h.syncAndWait();
    expect(one).toMatchObject({ status: 'ok', summary: { boxes: 1, seen: 2, downloaded: 2, failed: 0 } });
    expect((await h.api.patch('/api/settings', { box_address: second.descriptionUrl })).status).toBe(200);
    const two = await h.syncAndWait();
    expect(two).toMatchObject({ status: 'ok', summary: { boxes: 1, seen: 3, downloaded: 3, failed: 0 } });

    const rows = (await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string; status: string; file_path: string }>;
    // Both boxes hold "Bluey S01E01": the second file gets its box id appended instead of overwriting.
    expect(new Set(rows.map((r) => r.file_path)).size).toBe(5);
    expect(rows.find((r) => r.box_id === '800000001')!.file_path).toMatch(/Bluey - S01E01 - Episode 1 & More \[800000001\]\.ts$/);
    expect(rows.map((r) => r.box_id).sort()).toEqual(['700000001', '700000002', '800000001', '800000002', '800000003']);
    expect(rows.every((r) => r.status === 'done')).toBe(true);
    // A failing post-download step never stops the sync or damages the row.
    expect(afterDone.sort()).toEqual(['700000001', '700000002', '800000001', '800000002', '800000003']);
    expect(refreshed).toHaveLength(2);
  });

  it('syncs both boxes when box_address names both, and still syncs one when the other is off', async () => {
    expect((await h.api.patch('/api/settings', { box_address: `${h.box.descriptionUrl}, ${second.descriptionUrl}` })).status).toBe(200);
    const both = await h.syncAndWait();
    expect(both).toMatchObject({ status: 'ok', summary: { boxes: 2, seen: 5, downloaded: 0, already_done: 5 } });
    expect(refreshed).toHaveLength(2);
    expect((await h.api.patch('/api/settings', { box_address: `${h.box.descriptionUrl}, 127.0.0.1:9` })).status).toBe(200);
    const half = await h.syncAndWait();
    expect(half.summary).toMatchObject({ boxes: 1, already_done: 2 });
    expect(half.summary.error).toContain('cannot reach the box at 127.0.0.1:9');
    expect((await h.api.patch('/api/settings', { box_address: 'box one, ../etc' })).status).toBe(400);
    expect((await h.api.patch('/api/settings', { box_address: second.descriptionUrl })).status).toBe(200);
  });

  it('does not refresh the media server after a sync that downloaded nothing', async () => {
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 0, already_done: 3 });
    expect(refreshed).toHaveLength(2);
  });
});
