import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../core/testing/lan-targets.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { startHarness, type Harness } from '../testing/harness.js';

/** "Current box" reads the box's own name (from its description over HTTP), not its description URL. */
describe('GET /api/box', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 700000001, 1, () => 1000)], friendlyName: 'Lounge Fetch Box' } });
  });
  afterAll(async () => h.cleanup());

  it('names the saved box; nothing saved is an empty list', async () => {
    expect((await h.api.get('/api/box')).body).toEqual({ boxes: [] });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    const res = await h.api.get('/api/box');
    expect(res.status).toBe(200);
    expect(res.body.boxes).toEqual([expect.objectContaining({ address: h.box.descriptionUrl, reachable: true, friendly_name: 'Lounge Fetch Box' })]);
  });

  it('a saved box that does not answer says so in one short line', async () => {
    const { port } = await closedPort();
    await h.api.patch('/api/settings', { box_address: `127.0.0.1:${port}` });
    const res = await h.api.get('/api/box');
    expect(res.body.boxes).toEqual([{ address: `127.0.0.1:${port}`, reachable: false, friendly_name: null, model_name: null, message: expect.stringContaining('no HTTP answer') }]);
  });
});
