import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoxSimulator, type BoxSimulator } from '../box/simulator/box-simulator.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { startHarness, type Harness } from '../testing/harness.js';

describe('which box a sync talks to when box_address is blank', () => {
  let h: Harness;
  let late: BoxSimulator;
  let lateAnswers = false;
  beforeAll(async () => {
    late = createBoxSimulator({ shows: [sampleShow('Bluey', 800000001, 2, () => 3000)], udn: 'uuid:late-box', friendlyName: 'Impostor' });
    await late.start();
    h = await startHarness({
      box: { shows: [sampleShow('Bluey', 700000001, 2, () => 4000)], friendlyName: 'Lounge' },
      extraLocations: () => (lateAnswers ? [late.descriptionUrl] : []),
    });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids/Bluey' });
  });
  afterAll(async () => {
    await h.cleanup();
    await late.stop();
  });

  it('syncs the one box discovery finds, saves it as box_address and says so', async () => {
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { boxes: 1, downloaded: 2 } });
    const host = new URL(h.box.baseUrl).host;
    expect(run.summary.note).toContain('Lounge');
    expect(run.summary.note).toContain(host);
    const view = (await h.api.get('/api/settings')).body;
    expect(view.settings.box_address).toBe(host);
    expect(view.sources.box_address).toBe('stored');
  });

  it('never syncs a device that starts answering discovery later as a box', async () => {
    lateAnswers = true;
    late.update('800000001', { title: 'S1 E9 - New one' });
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { boxes: 1, already_done: 2, downloaded: 0 } });
    expect(late.requests).toEqual([]);
    expect(late.browses).toEqual([]);
    const ids = ((await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string }>).map((r) => r.box_id).sort();
    expect(ids).toEqual(['700000001', '700000002']);
  });

  it('clearing box_address searches again; with two boxes answering nothing is synced and both are named', async () => {
    expect((await h.api.patch('/api/settings', { box_address: null })).status).toBe(200);
    const run = await h.syncAndWait();
    expect(run.status).toBe('error');
    expect(run.summary.error).toMatch(/2 recording boxes answered discovery/);
    expect(run.summary.error).toContain('Lounge');
    expect(run.summary.error).toContain('Impostor');
    expect(run.summary.error).toContain('set box_address');
    expect(late.browses).toEqual([]);
    expect((await h.api.get('/api/settings')).body.sources.box_address).toBe('default');
  });
});
