import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { createFakeMediaServer, type FakeMediaServer } from './fake-media-server.js';

/**
 * Plex's partial scan (issue 45): `GET /library/sections/<id>/refresh?path=<folder>` (python-plexapi's
 * `LibrarySection.update(path=...)`) for each new item's folder when the section shows it; the
 * whole section otherwise. Over real sockets on loopback against the Plex simulator.
 */
const TOKEN = 'Plex-Token-partial-0123456789';

describe('Plex: only the new items\u2019 folders are scanned when the section shows them', () => {
  let plex: FakeMediaServer;
  let h: Harness;
  const tv = { id: '2', title: 'TV Shows', type: 'show', locations: [] as string[] };

  beforeAll(async () => {
    plex = createFakeMediaServer({ token: TOKEN, sections: [{ id: '1', title: 'Movies', type: 'movie', locations: ['/elsewhere/movies'] }, tv] });
    await plex.start();
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 750000001, 1, () => 3000), sampleShow('Landline', 750000101, 1, () => 3000)] } });
    // Plex runs on this PC: its TV section's folder is the media folder itself.
    tv.locations.push(h.mediaRoot);
    await h.api.patch('/api/settings', { media_server_url: plex.url, media_server_token: TOKEN, media_server_section_id: '2', box_address: h.box.descriptionUrl });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Bluey' });
    await h.api.post('/api/shows', { name: 'landline', dest_folder: 'Landline' });
  });
  afterAll(async () => {
    await h.cleanup();
    await plex.stop();
  });

  it('after a sync with downloads in two folders: one refresh per new folder, none of the whole section; a sync with nothing new asks nothing', async () => {
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 2, media_server_refresh: 'ok' });
    expect(plex.refreshRequests).toHaveLength(2);
    expect(plex.refreshRequests.every((r) => r.section === '2' && r.path !== null)).toBe(true);
    const folders = plex.refreshRequests.map((r) => r.path!).sort();
    expect(folders[0]!.startsWith(path.join(h.mediaRoot, 'Bluey'))).toBe(true);
    expect(folders[1]!.startsWith(path.join(h.mediaRoot, 'Landline'))).toBe(true);
    // Each names the folder the new recording lies in, as it is on disk.
    for (const f of folders) expect(fs.readdirSync(f).some((n) => n.endsWith('.ts'))).toBe(true);

    const idle = await h.syncAndWait();
    expect(idle.summary.downloaded).toBe(0);
    expect(idle.summary.media_server_refresh).toBeUndefined();
    expect(plex.refreshRequests).toHaveLength(2);
  });

  it('when the section names its folder differently (Plex on another machine), the whole section is refreshed once', async () => {
    tv.locations.splice(0, tv.locations.length, '/srv/media/tv');
    h.box.add(0, { ...sampleShow('Bluey', 750000002, 1, () => 3000).items[0]!, title: 'S1 E2 - Episode 2 - Tue 02 Jul' });
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'ok' });
    expect(plex.refreshRequests.slice(2)).toEqual([{ section: '2', path: null }]);
  });

  it('a folder refresh the server refuses is a failed refresh in the run (the refresh guard keeps the box copy)', async () => {
    tv.locations.splice(0, tv.locations.length, h.mediaRoot);
    plex.refreshStatus = 500;
    h.box.add(0, { ...sampleShow('Bluey', 750000003, 1, () => 3000).items[0]!, title: 'S1 E3 - Episode 3 - Wed 03 Jul' });
    const run = await h.syncAndWait();
    plex.refreshStatus = 200;
    expect(run.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'failed' });
    expect(run.summary.media_server_error).toContain('HTTP 500');
    expect(plex.refreshRequests).toHaveLength(3);
  });
});
