import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoClock } from '../core/clock.js';
import { silentLogger } from '../core/logger.js';
import { clockView } from '../core/clock-route.js';
import { DEMO_CRON, startRecordingsDemo } from './demo.js';
import { ApiClient, tempDir } from './testing/harness.js';

describe('recordings demo', () => {
  const dir = tempDir('recordings-demo-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves the service against a simulated box with followed shows, then stops cleanly', async () => {
    // Without the ffmpeg clips here (the last test has them): the box records a new episode every
    // 0.5 s and serves downloads 50 times faster than the demo's watchable pace (what is checked here
    // is that each Sync now downloads something, not how long it takes).
    const demo = await startRecordingsDemo({ dataDir: dir, port: 0, logger: silentLogger, clips: false, newEpisodeEveryMs: 500, downloadSpeed: 50 });
    try {
      const api = new ApiClient(demo.url);
      expect(new URL(demo.url).hostname).toBe('127.0.0.1');
      expect((await api.get('/api/shows')).body.shows.map((s: { name: string }) => s.name)).toEqual(['broke girls', 'Gardening']);
      const boxShows = await api.post('/api/box-shows');
      expect(boxShows.body.boxes[0].shows.map((s: { title: string }) => s.title)).toEqual(['2 Broke Girls', 'Gardening Australia', 'The Chase Australia', 'Movies & Specials']);
      const found = await api.post('/api/discover-box');
      expect(found.body.boxes).toHaveLength(1);
      // The media server (Jellyfin) was found by its discovery on loopback, its API key set (masked) and its TV library chosen; the cloud answers.
      const view = (await api.get('/api/settings')).body;
      expect(view.settings).toMatchObject({ media_server_kind: 'jellyfin', media_server_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), media_server_token: '••••••••', media_server_section_id: '767bffe4f11c93ef34b805451a696a4e' });
      expect((await api.get('/api/media-server')).body).toEqual({ configured: true, state: 'answering', library: { id: '767bffe4f11c93ef34b805451a696a4e', name: 'TV Shows' } });
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
      // The schedule does not take what waits for Sync now, and the box keeps recording: two Sync
      // nows in a row both download something.
      expect(view.settings.sync_cron).toBe(DEMO_CRON);
      for (let i = 0; i < 2; i++) {
        if (i > 0) {
          // After a sync took everything: the box records the next episode a little later.
          const seen = demo.recorded();
          const until = Date.now() + 10_000;
          while (demo.recorded() === seen && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
        }
        const started = await api.post('/api/sync');
        expect(started.status).toBe(202);
        const run = await finished(api, started.body.run.id);
        expect(run.status).toBe('ok');
        expect(run.summary!.downloaded, `Sync now #${i + 1}`).toBeGreaterThan(0);
      }
      expect(demo.recorded()).toBeGreaterThan(0);
    } finally {
      await demo.stop();
    }
    // A second start on the same data folder keeps the state and does not duplicate the shows.
    const again = await startRecordingsDemo({ dataDir: dir, port: 0, logger: silentLogger, clips: false });
    expect((await new ApiClient(again.url).get('/api/shows')).body.shows).toHaveLength(2);
    expect((await new ApiClient(again.url).get('/api/sync-runs')).body.runs).toHaveLength(4);
    await again.stop();
  }, 180_000);

  it("on the demo clock (as `npm run demo` runs it) reports the energy clock's time: its past runs, its clock, a Sync now", async () => {
    // The energy service's demo clock: 1 June 2025 09:30, 30 times real time; GET /api/clock on the
    // energy service answers clockView of it.
    const demoClock = createDemoClock({ start: Date.UTC(2025, 5, 1, 9, 30), speed: 30 });
    const dir3 = tempDir('recordings-demo-clock-');
    const demo = await startRecordingsDemo({ dataDir: dir3, port: 0, logger: silentLogger, clips: false, newEpisodeEveryMs: 0, downloadSpeed: 50, clock: demoClock });
    try {
      const api = new ApiClient(demo.url);
      const energyNow = clockView(demoClock, 'UTC').now;
      const shown = (await api.get('/api/clock')).body as { now: number; speed: number; demo: boolean };
      expect(shown).toMatchObject({ speed: 30, demo: true });
      // The two services' "now" agree to within the few seconds of demo time the request took.
      expect(Math.abs(shown.now - energyNow)).toBeLessThan(60_000);
      // Its past runs are a day and three days before the demo clock's now (not this computer's).
      const runs = (await api.get('/api/sync-runs')).body.runs as Array<{ started_at: string }>;
      const ages = runs.map((r) => (demoClock.now() - Date.parse(r.started_at)) / 86_400_000).sort();
      expect(ages[0]).toBeGreaterThan(0.9);
      expect(ages[0]).toBeLessThan(1.1);
      expect(ages[1]).toBeGreaterThan(2.9);
      expect(ages[1]).toBeLessThan(3.1);
      // Sync now starts at the energy clock's time of day.
      const before = clockView(demoClock, 'UTC').now;
      const started = await api.post('/api/sync');
      expect(started.status).toBe(202);
      expect(Date.parse(started.body.run.started_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(started.body.run.started_at)).toBeLessThanOrEqual(clockView(demoClock, 'UTC').now + 1000);
      const run = await finished(api, started.body.run.id);
      expect(run.status).toBe('ok');
      expect(run.summary!.downloaded).toBeGreaterThan(0);
    } finally {
      await demo.stop();
      fs.rmSync(dir3, { recursive: true, force: true });
    }
  }, 180_000);

  it('keeps its promise: ad removal on, and Re-scan of a demo clip finds its real break and marks it: an EDL and a chaptered .mkv beside it (comskip, ffmpeg)', async () => {
    const dir2 = tempDir('recordings-demo-promise-');
    const demo = await startRecordingsDemo({ dataDir: dir2, port: 0, logger: silentLogger, newEpisodeEveryMs: 0 });
    try {
      const api = new ApiClient(demo.url);
      const view = (await api.get('/api/settings')).body;
      expect(view.settings).toMatchObject({ ad_removal_enabled: true, sync_cron: DEMO_CRON });
      const gardening = (await api.get('/api/shows')).body.shows.find((s: { name: string }) => s.name === 'Gardening');
      expect(gardening).toMatchObject({ ad_mode: 'mark', mark_chapters: 'beside' });
      type Row = { box_id: string; show_title: string; file_path: string; ad_status: string; ad_breaks_json: string | null; ad_error?: string | null; status: string; progress: unknown };
      const rows = async () => (await api.get('/api/recordings')).body.recordings as Row[];
      const past = (await rows()).find((r) => r.show_title === 'Gardening Australia' && r.status === 'done')!;
      expect(past.ad_status).toBe('unscanned');
      expect((await api.post(`/api/recordings/${past.box_id}/ad-scan`)).status).toBe(202);
      const until = Date.now() + 240_000;
      let row: Row | undefined;
      while (Date.now() < until) {
        row = (await rows()).find((r) => r.box_id === past.box_id);
        if (row && row.ad_status !== 'scanning' && row.ad_status !== 'unscanned' && !row.progress) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(row).toMatchObject({ ad_status: 'marked', ad_error: null });
      const breaks = JSON.parse(row!.ad_breaks_json!) as Array<{ start: number; end: number }>;
      expect(breaks).toHaveLength(1);
      expect(Math.abs(breaks[0]!.start - 130)).toBeLessThan(3);
      const stem = row!.file_path.replace(/\.ts$/, '');
      expect(fs.readFileSync(`${stem}.edl`, 'utf8')).toMatch(/^\d+\.\d\d\t\d+\.\d\d\t3\n$/);
      expect(fs.statSync(`${stem}.mkv`).size).toBeGreaterThan(0);
    } finally {
      await demo.stop();
      fs.rmSync(dir2, { recursive: true, force: true });
    }
  }, 300_000);
});

/** Waits (bounded) until a sync run has finished and returns it. */
async function finished(api: ApiClient, id: number): Promise<{ status: string; summary: { downloaded: number } | null }> {
  const end = Date.now() + 90_000;
  for (;;) {
    const run = (await api.get(`/api/sync-runs/${id}`)).body.run;
    if (run.status !== 'running' || Date.now() > end) return run;
    await new Promise((r) => setTimeout(r, 200));
  }
}
