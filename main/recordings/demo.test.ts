import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { startRecordingsDemo } from './demo.js';
import { ApiClient, tempDir } from './testing/harness.js';

describe('recordings demo', () => {
  const dir = tempDir('recordings-demo-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves the service against a simulated box with followed shows, then stops cleanly', async () => {
    const demo = await startRecordingsDemo({ dataDir: dir, port: 0, logger: silentLogger });
    try {
      const api = new ApiClient(demo.url);
      expect(new URL(demo.url).hostname).toBe('127.0.0.1');
      expect((await api.get('/api/shows')).body.shows.map((s: { name: string }) => s.name)).toEqual(['broke girls', 'Gardening']);
      const boxShows = await api.post('/api/box-shows');
      expect(boxShows.body.boxes[0].shows.map((s: { title: string }) => s.title)).toEqual(['2 Broke Girls', 'Gardening Australia', 'The Chase Australia', 'Movies & Specials']);
      const found = await api.post('/api/discover-box');
      expect(found.body.boxes).toHaveLength(1);
      // The media server was found by GDM on loopback, its token detected (masked) and its TV library chosen; the cloud answers.
      const view = (await api.get('/api/settings')).body;
      expect(view.settings).toMatchObject({ media_server_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), media_server_token: '••••••••', media_server_section_id: '2' });
      expect(view.capabilities).toMatchObject({ discover_media_server: true, cloud_test: true, delete_from_box: true });
      const cloud = await api.post('/api/cloud-test');
      expect(cloud.body.boxes).toEqual([expect.objectContaining({ friendly_name: 'Demo Fetch Box', pvr: true })]);
      // A past from the first second: two finished sync runs, a day and three days back, and the
      // episodes they fetched in the recordings list; newer episodes are left for "Sync now".
      const runs = (await api.get('/api/sync-runs')).body.runs as Array<{ status: string; started_at: string }>;
      expect(runs).toHaveLength(2);
      const ages = runs.map((r) => (Date.now() - Date.parse(r.started_at)) / 86_400_000).sort();
      expect(ages[0]).toBeGreaterThan(0.9);
      expect(ages[1]).toBeGreaterThan(2.9);
      expect(runs.every((r) => r.status === 'ok')).toBe(true);
      const recs = (await api.get('/api/recordings')).body;
      expect(JSON.stringify(recs)).toContain('E3 - Episode 3');
      expect(JSON.stringify(recs)).not.toContain('E4 - Episode 4');
    } finally {
      await demo.stop();
    }
    // A second start on the same data folder keeps the state and does not duplicate the shows.
    const again = await startRecordingsDemo({ dataDir: dir, port: 0, logger: silentLogger });
    expect((await new ApiClient(again.url).get('/api/shows')).body.shows).toHaveLength(2);
    expect((await new ApiClient(again.url).get('/api/sync-runs')).body.runs).toHaveLength(2);
    await again.stop();
  });
});
