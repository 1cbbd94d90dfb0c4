import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimShow } from '../box/simulator/box-model.js';
import { createFakeMediaServer, type FakeMediaServer } from '../mediaserver/fake-media-server.js';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';
import { FETCHARR_FIXTURE, copyFixture, fixtureAvailable, readFacts } from './testing.js';

if (!fixtureAvailable()) console.warn(`fetcharr sync tests skipped: the anchor fixture is not at ${FETCHARR_FIXTURE} (set FETCHARR_FIXTURE)`);
const suite = fixtureAvailable() ? describe : describe.skip;

/**
 * The box fetcharr synced from, as facts.json describes it: the same DLNA object ids, titles and
 * sizes (the failed episode is back and serves its bytes now), plus a show nobody follows.
 */
function fixtureBox(): SimShow[] {
  const facts = readFacts();
  const items = (showId: number) =>
    facts.recordings.filter((r) => r.show_id === showId).map((r) => ({ id: r.fetch_id, title: r.fetch_title, length: r.size }));
  return [
    { title: 'Garden Makeover', items: items(1) },
    { title: 'Quiz Night', items: items(2) },
    { title: 'Night Market', items: [{ id: '64$0$1$0', title: 'S2 E3 - Dumplings - Fri 10 Jul', length: 300_000 }] },
  ];
}

/** The box address fetcharr stored (fetch_ip:fetch_port): the simulator listens there on loopback. */
const FIXTURE_BOX_PORT = 18402;
/** fetcharr's stored plex_url is http://127.0.0.1:18403. */
const FIXTURE_PLEX_PORT = 18403;

suite('after importing fetcharr, a sync against the same box', () => {
  let h: Harness | null = null;
  let plex: FakeMediaServer | null = null;
  let root = '';
  afterEach(async () => {
    await h?.cleanup();
    await plex?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
    h = null;
    plex = null;
  });

  it('downloads none of the four fetcharr downloaded (files untouched) and retries the failed one', async () => {
    const copy = copyFixture();
    root = copy.root;
    const facts = readFacts();
    h = await startHarness({ box: { shows: fixtureBox(), port: FIXTURE_BOX_PORT } });
    plex = createFakeMediaServer({ token: 'fxPlexToken-9QwErTy', port: FIXTURE_PLEX_PORT });
    await plex.start();

    const imported = await h.api.post('/api/import', { dir: copy.config, media_root_from: '/media', media_root_to: copy.media });
    expect(imported.status).toBe(200);
    expect(h.service.recordings.get('64$0$0$0')).toMatchObject({ show_title: null, box_udn: null, recorded_start: null });
    expect(imported.body.report.counts.recordings).toMatchObject({ done: 4, files_found: 4, retry: 1 });
    // fetcharr's box and Plex addresses are used as they were stored (both listen there on loopback);
    // the imported token is bound to the imported Plex address, so it is sent there.
    const settings = (await h.api.get('/api/settings')).body.settings;
    expect(settings.box_address).toBe('127.0.0.1:18402');
    expect(settings.media_server_url).toBe(plex.url);

    const done = facts.recordings.filter((r) => r.status === 'done');
    const files = done.map((r) => path.join(copy.media, ...r.file_path.replace(/^\/media\//, '').split('/')));
    const before = files.map((f) => ({ hash: sha256File(f), mtime: fs.statSync(f).mtimeMs, size: fs.statSync(f).size }));

    const run = await h.syncAndWait();
    expect(run.status).toBe('ok');
    expect(run.summary).toMatchObject({ downloaded: 1, failed: 0, seen: 5, already_done: 4 });
    // Matched by the box's own ids (fetcharr's fetch_id), not re-identified as renumbered items.
    expect(run.summary.renumbered).toBeUndefined();
    expect(run.summary.ids_reused).toBeUndefined();

    // The four: no media request at all, files byte-for-byte and mtime the same.
    const asked = new Set(h.box.requests.map((r) => decodeURIComponent(r.path.replace(/^\/web\//, ''))));
    for (const r of done) expect(asked.has(r.fetch_id), r.fetch_id).toBe(false);
    expect(files.map((f) => ({ hash: sha256File(f), mtime: fs.statSync(f).mtimeMs, size: fs.statSync(f).size }))).toEqual(before);

    // The failed one was downloaded now, whole, into the show's folder under the imported media root.
    const retried = (await h.api.get('/api/recordings')).body.recordings.find((r: { box_id: string }) => r.box_id === '64$0$2$1');
    expect(retried).toMatchObject({ status: 'done', error: null, size: 419428 });
    expect(path.dirname(retried.file_path)).toBe(path.join(copy.media, 'Quiz Night (2019)', 'Season 12'));
    expect(sha256File(retried.file_path)).toBe(h.box.hash('64$0$2$1'));
    // The show nobody followed stays on the box; the imported Plex token refreshed section 2.
    expect(asked.has('64$0$1$0')).toBe(false);
    expect(plex.refreshes).toEqual(['2']);

    // The rows fetcharr downloaded learnt what fetcharr never stored: the box's folder title, the box and the start time.
    const learnt = h.service.recordings.get('64$0$0$0')!;
    expect([learnt.show_title, learnt.box_udn, learnt.recorded_start]).toEqual(['Garden Makeover', 'uuid:fetch-box-sim-0001', 'Wednesday 01 July 2020 09:05 PM']);
    expect(learnt).toMatchObject({ status: 'done', file_path: files[0] });

    // A second sync downloads nothing at all.
    const again = await h.syncAndWait();
    expect(again.summary).toMatchObject({ downloaded: 0, already_done: 5 });
  });

  it('lists both shows with their options and the imported history through the API', async () => {
    const copy = copyFixture();
    root = copy.root;
    h = await startHarness({ box: { shows: fixtureBox() } });
    const preview = await h.api.post('/api/import/preview', { dir: copy.config, media_root_to: copy.media });
    expect(preview.status).toBe(200);
    expect(preview.body.preview.counts).toMatchObject({ shows: 2, sync_runs: 1 });
    // A preview writes nothing.
    expect((await h.api.get('/api/shows')).body.shows).toEqual([]);

    expect((await h.api.post('/api/import', { dir: copy.config, media_root_to: copy.media })).status).toBe(200);
    // fetcharr never stored the box folder's title: the list names the followed show instead.
    const listed = (await h.api.get('/api/recordings')).body.recordings;
    expect(listed.find((r: { box_id: string }) => r.box_id === '64$0$2$1')).toMatchObject({ show_title: 'Quiz Night', status: 'failed' });
    expect(listed.find((r: { box_id: string }) => r.box_id === '64$0$0$0')).toMatchObject({ show_title: 'Garden Makeover', status: 'done' });
    const shows = (await h.api.get('/api/shows')).body.shows;
    expect(shows.map((s: Record<string, unknown>) => [s.name, s.dest_folder, s.season_template, s.enabled, s.delete_after_download, s.ad_mode])).toEqual([
      ['Garden Makeover', 'Garden Makeover', 'Season {season}', true, true, 'detect'],
      ['Quiz Night', 'Quiz Night (2019)', 'Season {season_unpadded}', true, false, 'off'],
    ]);
    const runs = (await h.api.get('/api/sync-runs')).body.runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'manual', status: 'partial', started_at: '2026-11-25T04:47:18.000Z' });

    // The box has moved: with the address cleared, SSDP on loopback finds it, and the sync still
    // knows the four downloads and fetches only the one that failed.
    expect((await h.api.patch('/api/settings', { box_address: null, media_server_url: '' })).status).toBe(200);
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ boxes: 1, downloaded: 1, already_done: 4, failed: 0 });
    expect(run.summary.note).toContain('found by discovery');
    expect((await h.api.get('/api/sync-runs')).body.runs.map((r: { id: number; summary: { imported_from?: string } }) => r.summary.imported_from ?? 'ours')).toEqual(['ours', 'fetcharr']);
  });
});
