import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';
import { durationOf, makeClip, streamTypes, SYNTHETIC_DETECTOR_INI, twoAdBreak, type ClipPart } from './testing/clips.js';

// One break at 45 s in a 123 s clip (the detector.ini below lets comskip accept 30 s programme parts).
const PARTS: ClipPart[] = [{ kind: 'programme', seconds: 45 }, ...twoAdBreak(15), { kind: 'programme', seconds: 45 }];
const MARK = '600000001';

interface Row {
  box_id: string;
  ad_status: string;
  ad_error: string | null;
  ad_breaks_json: string | null;
  file_path: string;
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

const chaptersIn = (file: string) =>
  (JSON.parse(spawnSync('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', file]).stdout.toString()) as { chapters: Array<{ start_time: string; end_time: string; tags: { title: string } }> }).chapters.map(
    (c) => ({ start: Number(c.start_time), end: Number(c.end_time), title: c.tags.title }),
  );

describe('Mark mode in the service: after a download, on Re-scan, and when a file of that name is not ours', () => {
  let h: Harness;
  let clip: Buffer;
  let showId: number;
  const rowOf = async (id: string) => ((await h.api.get('/api/recordings')).body.recordings as Row[]).find((r) => r.box_id === id)!;
  const settled = (id: string) => waitFor(`${id} settled`, async () => (h.service.guard.isBusy(id) ? undefined : rowOf(id)));
  const sibling = (file: string, ext: string) => file.replace(/\.ts$/, ext);

  beforeAll(async () => {
    clip = fs.readFileSync(makeClip(PARTS));
    h = await startHarness({
      box: { shows: [{ title: 'Gardening Australia', items: [{ id: MARK, title: 'S1 E1 - Compost - Mon 01 Jul', length: clip.length, content: clip }] }] },
      deps: { adRemoval: { scanTimeout: (d) => Math.max(60_000, (d ?? 600) * 1500) } },
    });
    fs.writeFileSync(path.join(h.dataDir, 'detector.ini'), `${SYNTHETIC_DETECTOR_INI}min_show_segment_length=30\n`);
    const res = await h.api.post('/api/shows', { name: 'Gardening Australia', dest_folder: 'Gardening', ad_mode: 'mark', mark_chapters: 'beside' });
    expect(res.status).toBe(201);
    expect(res.body.show).toMatchObject({ ad_mode: 'mark', mark_chapters: 'beside', mark_counts_as_cut: false });
    showId = res.body.show.id;
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, ad_removal_enabled: true });
  }, 60_000);
  afterAll(async () => h.cleanup());

  it('refuses an unknown chapters option with a 400 naming the field in words', async () => {
    const res = await h.api.patch(`/api/shows/${showId}`, { mark_chapters: 'inside' });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('mark_chapters');
    expect(res.body.error.message).toMatch(/^Chapters \(Mark mode\): /);
  });

  it('marks a new download: an EDL and a chaptered .mkv beside it, the recording byte for byte as on the box', async () => {
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 1 } });
    const row = await rowOf(MARK);
    expect(row).toMatchObject({ ad_status: 'marked', ad_error: null });
    expect(sha256File(row.file_path)).toBe(h.box.hash(MARK));
    const breaks = JSON.parse(row.ad_breaks_json!) as Array<{ start: number; end: number }>;
    expect(breaks).toHaveLength(1);
    expect(Math.abs(breaks[0]!.start - 45)).toBeLessThan(3);
    // The EDL reads back as the detected breaks, in Kodi's `start end 3` form.
    expect(fs.readFileSync(sibling(row.file_path, '.edl'), 'utf8')).toBe(breaks.map((b) => `${b.start.toFixed(2)}\t${b.end.toFixed(2)}\t3\n`).join(''));
    const mkv = sibling(row.file_path, '.mkv');
    expect(streamTypes(mkv)).toEqual(['video', 'audio']);
    expect(Math.abs(durationOf(mkv) - durationOf(row.file_path))).toBeLessThan(1);
    const chapters = chaptersIn(mkv);
    expect(chapters.map((c) => c.title)).toEqual(['Programme', 'Commercial', 'Programme']);
    expect(chapters[1]!.start).toBeCloseTo(breaks[0]!.start, 2);
    expect(chapters[1]!.end).toBeCloseTo(breaks[0]!.end, 2);
    expect(fs.readdirSync(h.mediaRoot, { recursive: true }).some((p) => String(p).includes('.adcut-work'))).toBe(false);
  }, 120_000);

  it('re-marks on Re-scan, replacing its own files', async () => {
    const row = await rowOf(MARK);
    const mkv = sibling(row.file_path, '.mkv');
    const written = [fs.statSync(mkv), fs.statSync(sibling(row.file_path, '.edl'))].map((st) => ({ ino: st.ino, mtime: st.mtimeMs }));
    expect((await h.api.post(`/api/recordings/${MARK}/ad-scan`)).status).toBe(202);
    const again = await settled(MARK);
    expect(again).toMatchObject({ ad_status: 'marked', ad_error: null });
    // Both files written anew (a new file renamed over each), nothing else beside the recording.
    const rewritten = [fs.statSync(mkv), fs.statSync(sibling(row.file_path, '.edl'))].map((st) => ({ ino: st.ino, mtime: st.mtimeMs }));
    for (const [i, w] of written.entries()) expect(rewritten[i]!.ino).not.toBe(w.ino);
    expect(fs.readdirSync(path.dirname(row.file_path)).sort()).toEqual(['.edl', '.mkv', '.ts'].map((e) => path.basename(row.file_path, '.ts') + e));
    expect(sha256File(again.file_path)).toBe(h.box.hash(MARK));
  }, 120_000);

  it('ends mark_failed, saying why, when an .edl of that name is the owner\u2019s; their file and the recording stay as they were', async () => {
    const row = await rowOf(MARK);
    const edl = sibling(row.file_path, '.edl');
    fs.writeFileSync(edl, '10.00\t20.00\t0\n');
    expect((await h.api.post(`/api/recordings/${MARK}/ad-scan`)).status).toBe(202);
    const failed = await settled(MARK);
    expect(failed.ad_status).toBe('mark_failed');
    expect(failed.ad_error).toBe(`${path.basename(row.file_path, '.ts')}.edl already exists and was not written by the recording sync: left alone`);
    expect(fs.readFileSync(edl, 'utf8')).toBe('10.00\t20.00\t0\n');
    expect(sha256File(failed.file_path)).toBe(h.box.hash(MARK));
  }, 120_000);
});
