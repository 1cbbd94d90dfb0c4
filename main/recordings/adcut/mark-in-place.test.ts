import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';
import { durationOf, makeClip, streamTypes, SYNTHETIC_DETECTOR_INI, twoAdBreak, type ClipPart } from './testing/clips.js';

// One break at 45 s in a 123 s clip (the detector.ini below lets comskip accept 30 s programme parts).
const PARTS: ClipPart[] = [{ kind: 'programme', seconds: 45 }, ...twoAdBreak(15), { kind: 'programme', seconds: 45 }];
const ID = '610000001';
const HIDDEN = '.recording-originals';

interface Row {
  box_id: string;
  ad_status: string;
  ad_error: string | null;
  ad_breaks_json: string | null;
  file_path: string;
  original_path: string | null;
}

const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, ms = 90_000): Promise<T> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
};

const chapterTitles = (file: string) =>
  (JSON.parse(spawnSync('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', file]).stdout.toString()) as { chapters: Array<{ tags: { title: string } }> }).chapters.map((c) => c.tags.title);

/** What a media server scanning the folder sees: its entries without the hidden ones. */
const visible = (dir: string) => fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort();

describe('Mark with the chaptered copy in place of the recording (issue 45)', () => {
  let h: Harness;
  let showId: number;
  const rowOf = async () => ((await h.api.get('/api/recordings')).body.recordings as Row[]).find((r) => r.box_id === ID)!;
  const settled = () => waitFor('settled', async () => (h.service.guard.isBusy(ID) ? undefined : rowOf()));
  const stemOf = (file: string) => path.basename(file, '.ts');

  beforeAll(async () => {
    const clip = fs.readFileSync(makeClip(PARTS));
    h = await startHarness({
      box: { shows: [{ title: 'Gardening Australia', items: [{ id: ID, title: 'S1 E1 - Compost - Mon 01 Jul', length: clip.length, content: clip }] }] },
      deps: { adRemoval: { scanTimeout: (d) => Math.max(60_000, (d ?? 600) * 1500) } },
    });
    fs.writeFileSync(path.join(h.dataDir, 'detector.ini'), `${SYNTHETIC_DETECTOR_INI}min_show_segment_length=30\n`);
    const res = await h.api.post('/api/shows', { name: 'Gardening Australia', dest_folder: 'Gardening', ad_mode: 'mark', mark_chapters: 'in_place' });
    expect(res.status).toBe(201);
    expect(res.body.show).toMatchObject({ ad_mode: 'mark', mark_chapters: 'in_place' });
    showId = res.body.show.id;
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, ad_removal_enabled: true });
  }, 60_000);
  afterAll(async () => h.cleanup());

  it('after the download the folder shows only the chaptered .mkv (and its EDL); the .ts, byte for byte as on the box, is kept in a hidden folder media servers skip', async () => {
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 1 } });
    const row = await rowOf();
    expect(row).toMatchObject({ ad_status: 'marked', ad_error: null });
    const dir = path.dirname(row.file_path);
    const stem = stemOf(row.file_path);
    expect(visible(dir)).toEqual([`${stem}.edl`, `${stem}.mkv`]);
    expect(fs.existsSync(row.file_path)).toBe(false);
    // The row records both: the recording's name (the marks are named after it) and the kept original.
    expect(row.original_path).toBe(path.join(dir, HIDDEN, `${stem}.ts`));
    expect(sha256File(row.original_path!)).toBe(h.box.hash(ID));
    // Each media server is told to skip the folder in its own documented way.
    expect(fs.readFileSync(path.join(dir, HIDDEN, '.plexignore'), 'utf8')).toBe('*\n');
    expect(fs.readFileSync(path.join(dir, HIDDEN, '.embyignore'), 'utf8')).toBe('*\n');
    expect(fs.readFileSync(path.join(dir, HIDDEN, '.ignore'), 'utf8')).toBe('');
    const mkv = path.join(dir, `${stem}.mkv`);
    expect(streamTypes(mkv)).toEqual(['video', 'audio']);
    expect(Math.abs(durationOf(mkv) - durationOf(row.original_path!))).toBeLessThan(1);
    expect(chapterTitles(mkv)).toEqual(['Programme', 'Commercial', 'Programme']);
  }, 120_000);

  it('start-up recovery and housekeeping (originals kept 0 days) leave the kept original alone', async () => {
    const before = await rowOf();
    await h.service.stop();
    await h.restart();
    expect((await h.api.patch('/api/settings', { ad_original_retention_days: 0 })).status).toBe(200);
    const idle = await h.syncAndWait();
    expect(idle.summary.downloaded).toBe(0);
    const row = await rowOf();
    expect(row.original_path).toBe(before.original_path);
    expect(sha256File(row.original_path!)).toBe(h.box.hash(ID));
    expect(fs.existsSync(row.file_path)).toBe(false);
    expect(visible(path.dirname(row.file_path))).toEqual([`${stemOf(row.file_path)}.edl`, `${stemOf(row.file_path)}.mkv`]);
  }, 60_000);

  it('Re-scan re-marks from the kept original: a new chaptered copy, the original untouched and still aside', async () => {
    const row = await rowOf();
    const mkv = row.file_path.replace(/\.ts$/, '.mkv');
    const ino = fs.statSync(mkv).ino;
    expect((await h.api.post(`/api/recordings/${ID}/ad-scan`)).status).toBe(202);
    const again = await settled();
    expect(again).toMatchObject({ ad_status: 'marked', ad_error: null, original_path: row.original_path });
    expect(fs.statSync(mkv).ino).not.toBe(ino);
    expect(chapterTitles(mkv)).toEqual(['Programme', 'Commercial', 'Programme']);
    expect(sha256File(again.original_path!)).toBe(h.box.hash(ID));
    expect(fs.existsSync(again.file_path)).toBe(false);
  }, 120_000);

  it('a show switched to "beside" gets the original back at its path on the next Re-scan; the hidden folder goes', async () => {
    expect((await h.api.patch(`/api/shows/${showId}`, { mark_chapters: 'beside' })).body.show.mark_chapters).toBe('beside');
    expect((await h.api.post(`/api/recordings/${ID}/ad-scan`)).status).toBe(202);
    const row = await settled();
    expect(row).toMatchObject({ ad_status: 'marked', ad_error: null, original_path: null });
    expect(sha256File(row.file_path)).toBe(h.box.hash(ID));
    const dir = path.dirname(row.file_path);
    expect(fs.readdirSync(dir).sort()).toEqual(['.edl', '.mkv', '.ts'].map((e) => stemOf(row.file_path) + e));
  }, 120_000);
});
