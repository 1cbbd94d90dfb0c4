import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../core/paths.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { copyFixture, FETCHARR_FIXTURE, fixtureAvailable } from '../import/testing.js';
import { startHarness, tempDir, testDataDir, type Harness } from '../testing/harness.js';

/**
 * Files the app writes stay its own (DESIGN rule 12, issue 37 item 2), over real HTTP to the
 * service and a box simulator on loopback.
 */
const EPISODE = 'Bluey - S01E01 - Episode 1 & More.ts';
const OWN_FOLDERS = /app's own folders/;

describe('a download never replaces a file the app did not create', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 700000001, 1, () => 1000)] } });
    expect((await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids', season_template: '' })).status).toBe(201);
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => h.cleanup());

  it('a name clash gets a numbered name; the file already there is left untouched, on every later sync too', async () => {
    const theirs = path.join(h.mediaRoot, 'Kids', EPISODE);
    fs.mkdirSync(path.dirname(theirs), { recursive: true });
    fs.writeFileSync(theirs, "someone else's file");
    expect(await h.syncAndWait()).toMatchObject({ status: 'ok' });
    const [row] = (await h.api.get('/api/recordings')).body.recordings as Array<{ status: string; file_path: string; size: number }>;
    expect(row).toMatchObject({ status: 'done', file_path: path.join(h.mediaRoot, 'Kids', 'Bluey - S01E01 - Episode 1 & More (2).ts'), size: 1000 });
    expect(fs.statSync(row!.file_path).size).toBe(1000);
    expect(fs.readFileSync(theirs, 'utf8')).toBe("someone else's file");
    expect(await h.syncAndWait()).toMatchObject({ status: 'ok' });
    expect(fs.readdirSync(path.dirname(theirs)).sort()).toEqual(['Bluey - S01E01 - Episode 1 & More (2).ts', EPISODE].sort());
    expect(fs.readFileSync(theirs, 'utf8')).toBe("someone else's file");
  });
});

describe("the media root keeps clear of the app's own folders", () => {
  let h: Harness;
  const made: string[] = [];
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 700000001, 1, () => 1000)] } });
  });
  afterAll(async () => {
    await h.cleanup();
    for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  });

  it('answers 400 naming media_root for the install folder, a folder in it, the data folder, a folder in it, a folder holding it and a symlink to the install folder', async () => {
    const before = (await h.api.get('/api/settings')).body.settings.media_root;
    const inData = path.join(h.dataDir, 'tv');
    fs.mkdirSync(inData);
    const links = tempDir('media-link-');
    made.push(links);
    fs.symlinkSync(path.join(repoRoot, 'main'), path.join(links, 'tv'));
    for (const p of [repoRoot, path.join(repoRoot, 'main'), h.dataDir, inData, h.dir, path.join(links, 'tv')]) {
      const res = await h.api.patch('/api/settings', { media_root: p });
      expect(res.status, p).toBe(400);
      expect(res.body.error.field).toBe('media_root');
      expect(res.body.error.message).toMatch(OWN_FOLDERS);
    }
    expect((await h.api.get('/api/settings')).body.settings.media_root).toBe(before);
    // The storage test says the same.
    expect((await h.api.post('/api/storage/test', { path: inData })).body.message).toMatch(OWN_FOLDERS);
  });

  it('a media root set before the start inside the data folder is refused: no sync writes there', async () => {
    const dir = tempDir('media-in-data-');
    made.push(dir);
    const inData = path.join(testDataDir(dir), 'tv');
    fs.mkdirSync(inData, { recursive: true });
    const g = await startHarness({ dir, box: { shows: [sampleShow('Bluey', 700000001, 1, () => 1000)] }, config: { env: { MEDIA_ROOT: inData } } });
    try {
      await g.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids' });
      await g.api.patch('/api/settings', { box_address: g.box.descriptionUrl });
      const run = await g.syncAndWait();
      expect(run.status).toBe('error');
      expect(JSON.stringify(run)).toMatch(OWN_FOLDERS);
      expect(fs.readdirSync(inData)).toEqual([]);
    } finally {
      await g.cleanup();
    }
  });
});

describe('nothing outside the media root is written, renamed or deleted through a symlink inside it', () => {
  let h: Harness;
  let outside: string;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [sampleShow('News', 400000001, 1, () => 1000)] } });
    await h.api.post('/api/shows', { name: 'news', dest_folder: 'News' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    expect(await h.syncAndWait()).toMatchObject({ status: 'ok' });
  });
  afterEach(() => fs.rmSync(outside, { recursive: true, force: true }));
  afterAll(async () => h.cleanup());

  it("housekeeping leaves a stale .partial and an old .orig alone when the row's folder leads outside", async () => {
    outside = tempDir('outside-media-');
    for (const f of ['victim.ts', 'victim.ts.partial', 'victim.ts.orig']) fs.writeFileSync(path.join(outside, f), f);
    fs.symlinkSync(outside, path.join(h.mediaRoot, 'Linked'));
    const db = new Database(path.join(h.dataDir, 'state.db'));
    try {
      // A done row (its .partial is stale) whose ads were cut long ago (its .orig is past retention).
      db.prepare(
        `INSERT INTO recordings (box_id, show_title, box_title, expected_size, status, file_path, ad_status, ad_processed_at, updated_at) VALUES ('900000001', 'News', 'old', 10, 'done', ?, 'cut', 1, 1)`,
      ).run(path.join(h.mediaRoot, 'Linked', 'victim.ts'));
    } finally {
      db.close();
    }
    h.service.recordings.invalidate();
    expect(await h.syncAndWait()).toMatchObject({ status: 'ok' });
    expect(fs.readdirSync(outside).sort()).toEqual(['victim.ts', 'victim.ts.orig', 'victim.ts.partial']);
  });

  it('an ad scan of a recording whose folder leads outside fails plainly and touches nothing there', async () => {
    outside = tempDir('outside-media-');
    fs.writeFileSync(path.join(outside, 'show.ts'), 'their file');
    fs.symlinkSync(outside, path.join(h.mediaRoot, 'Linked3'));
    const db = new Database(path.join(h.dataDir, 'state.db'));
    try {
      db.prepare(`INSERT INTO recordings (box_id, show_title, box_title, expected_size, status, file_path, updated_at) VALUES ('900000003', 'News', 'scan', 10, 'done', ?, 1)`).run(
        path.join(h.mediaRoot, 'Linked3', 'show.ts'),
      );
    } finally {
      db.close();
    }
    h.service.recordings.invalidate();
    expect((await h.api.post('/api/recordings/900000003/ad-scan')).status).toBe(202);
    let row: { ad_status: string; ad_error: string | null } | undefined;
    for (let i = 0; i < 200; i++) {
      row = ((await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string; ad_status: string; ad_error: string | null }>).find((r) => r.box_id === '900000003');
      if (row && row.ad_status !== 'scanning' && row.ad_status !== 'unscanned') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(row).toMatchObject({ ad_status: 'detect_failed', ad_error: expect.stringMatching(/leads outside the media root/) });
    expect(fs.readdirSync(outside)).toEqual(['show.ts']);
    expect(fs.readFileSync(path.join(outside, 'show.ts'), 'utf8')).toBe('their file');
  });

  it("the start-up repair of interrupted cuts neither restores an .orig nor removes a work folder through the symlink", async () => {
    outside = tempDir('outside-media-');
    fs.writeFileSync(path.join(outside, 'cut.ts.orig'), 'their original');
    fs.mkdirSync(path.join(outside, '.adcut-work', 'run'), { recursive: true });
    fs.writeFileSync(path.join(outside, '.adcut-work', 'run', 'theirs'), 'x');
    fs.symlinkSync(outside, path.join(h.mediaRoot, 'Linked2'));
    const db = new Database(path.join(h.dataDir, 'state.db'));
    try {
      // A cut interrupted between its two renames, as the start-up repair sees it: no file, an .orig.
      db.prepare(
        `INSERT INTO recordings (box_id, show_title, box_title, expected_size, status, file_path, ad_status, updated_at) VALUES ('900000002', 'News', 'cut', 10, 'done', ?, 'cut', 1)`,
      ).run(path.join(h.mediaRoot, 'Linked2', 'cut.ts'));
    } finally {
      db.close();
    }
    await h.service.stop();
    await h.restart();
    expect(fs.readdirSync(outside).sort()).toEqual(['.adcut-work', 'cut.ts.orig']);
    expect(fs.readdirSync(path.join(outside, '.adcut-work', 'run'))).toEqual(['theirs']);
  });
});

const suite = fixtureAvailable() ? describe : describe.skip;
if (!fixtureAvailable()) console.warn(`the fetcharr row test of own files skipped: the fetcharr anchor fixture is not at ${FETCHARR_FIXTURE} (set FETCHARR_FIXTURE)`);

suite('an imported fetcharr row whose file leads outside the media root', () => {
  let h: Harness;
  let copy: ReturnType<typeof copyFixture>;
  let outside: string;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [] } });
    copy = copyFixture();
    // The crafted folder: one show's folder inside the media root is a symlink to a folder elsewhere.
    outside = tempDir('outside-fetcharr-');
    fs.renameSync(path.join(copy.media, 'Garden Makeover'), path.join(outside, 'Garden Makeover'));
    fs.symlinkSync(path.join(outside, 'Garden Makeover'), path.join(copy.media, 'Garden Makeover'));
  });
  afterAll(async () => {
    await h.cleanup();
    fs.rmSync(copy.root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('is not carried, with the reason in the preview; the rows inside are carried', async () => {
    const body = { dir: copy.config, media_root_to: copy.media };
    const res = await h.api.post('/api/import/preview', body);
    expect(res.status).toBe(200);
    const refused = (res.body.preview.not_carried as Array<{ what: string; reason: string }>).filter((n) => /symbolic link/.test(n.reason));
    expect(refused.map((n) => n.what.split(' ')[1])).toEqual(['64$0$0$0', '64$0$0$1', '64$0$0$2']);
    expect(refused[0]!.reason).toMatch(/outside the media root/);
    expect(res.body.preview.counts.recordings).toMatchObject({ done: 1, files_found: 1 });
    expect((await h.api.post('/api/import', body)).status).toBe(200);
    const ids = ((await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string }>).map((r) => r.box_id).sort();
    expect(ids).toEqual(['64$0$2$0', '64$0$2$1']);
  });
});
