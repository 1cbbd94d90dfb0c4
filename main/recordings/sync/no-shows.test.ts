import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness.js';

describe('a sync with no followed show', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [{ title: 'Some Show', items: [{ id: '900000001', title: 'S1 E1 - Pilot - Mon 01 Jul', length: 10_000 }] }] } });
  });
  afterAll(async () => h.cleanup());

  it('finishes ok with a note and neither searches the LAN nor browses the box', async () => {
    const run = await h.syncAndWait();
    expect(run.status).toBe('ok');
    expect(run.summary).toMatchObject({ downloaded: 0, failed: 0, skipped: 0, seen: 0 });
    expect(run.summary.note).toMatch(/follow a show/);
    expect(h.ssdp.searches()).toBe(0);
    expect(h.box.requests).toHaveLength(0);
    expect((await h.api.get('/api/recordings')).body.recordings).toEqual([]);
  });
});
