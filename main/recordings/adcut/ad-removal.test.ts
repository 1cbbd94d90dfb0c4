import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgressUpdate } from '../progress.js';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';
import { makeClip, SYNTHETIC_DETECTOR_INI, twoAdBreak, type ClipPart } from './testing/clips.js';
import { defaultAdTools, type AdTools } from './tools.js';

// Programme parts of 45 s around one break (made at 45 s): the detector.ini below lowers comskip's
// minimum show segment from 120 s to 30 s, so every comskip run here reads a 123 s clip, not 293 s.
const PARTS: ClipPart[] = [{ kind: 'programme', seconds: 45 }, ...twoAdBreak(15), { kind: 'programme', seconds: 45 }];
const BREAK_AT = 45;
const CUT = '500000001';
const DETECT = '500000002';
const OFF = '500000003';
const CLEAN = '500000004';

interface Row {
  box_id: string;
  status: string;
  ad_status: string;
  ad_error: string | null;
  ad_breaks_json: string | null;
  ad_processed_at: string | null;
  file_path: string;
  purged_at: string | null;
}

const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
};

describe('ad removal in the service: the double gate, manual scans, failures, recovery and housekeeping', () => {
  let h: Harness;
  let clip: Buffer;
  let cleanClip: Buffer;
  let scanTimeout: number | null = null;
  const tools: AdTools = { ...defaultAdTools };
  const updates: Array<ProgressUpdate & { box_id: string }> = [];
  const showIds: Record<string, number> = {};
  const rowOf = async (id: string) => ((await h.api.get('/api/recordings')).body.recordings as Row[]).find((r) => r.box_id === id)!;
  const settled = (id: string) => waitFor(`${id} settled`, async () => (h.service.guard.isBusy(id) ? undefined : rowOf(id)));
  const item = (id: string, title: string) => ({ id, title, length: clip.length, content: clip });

  beforeAll(async () => {
    clip = fs.readFileSync(makeClip(PARTS));
    cleanClip = fs.readFileSync(makeClip([{ kind: 'programme', seconds: 60 }]));
    h = await startHarness({
      box: {
        shows: [
          { title: 'Cut Show', items: [item(CUT, 'S1 E1 - One - Mon 01 Jul')] },
          { title: 'Detect Show', items: [item(DETECT, 'S1 E1 - Two - Mon 01 Jul')] },
          { title: 'Off Show', items: [item(OFF, 'S1 E1 - Three - Mon 01 Jul')] },
          { title: 'Clean Show', items: [{ id: CLEAN, title: 'S1 E1 - Four - Mon 01 Jul', length: cleanClip.length, content: cleanClip }] },
        ],
      },
      deps: { adTools: tools, adRemoval: { scanTimeout: (d) => scanTimeout ?? Math.max(60_000, (d ?? 600) * 1500) } },
    });
    // A user detector.ini (the synthetic clips have no real logo) that also tries to turn the edit list off.
    fs.writeFileSync(path.join(h.dataDir, 'detector.ini'), `; output_edl=0\n${SYNTHETIC_DETECTOR_INI}min_show_segment_length=30\n`);
    const set = h.service.progress.set.bind(h.service.progress);
    h.service.progress.set = (boxId, u) => {
      updates.push({ box_id: boxId, ...u });
      return set(boxId, u);
    };
    for (const [name, mode, enabled] of [
      ['Cut Show', 'cut', true],
      ['Detect Show', 'detect', false],
      ['Off Show', 'off', false],
      ['Clean Show', 'cut', false],
    ] as const) {
      const res = await h.api.post('/api/shows', { name, dest_folder: name, ad_mode: mode, enabled });
      expect(res.status).toBe(201);
      showIds[name] = res.body.show.id;
    }
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  }, 60_000);
  afterAll(async () => h.cleanup());

  it('does nothing after a download while ad removal is switched off, even for a cut-mode show', async () => {
    expect((await h.api.get('/api/settings')).body.detector_config).toEqual({ path: path.join(h.dataDir, 'detector.ini'), source: 'user' });
    const run = await h.syncAndWait();
    expect(run.summary.downloaded).toBe(1);
    const row = await rowOf(CUT);
    expect(row).toMatchObject({ status: 'done', ad_status: 'unscanned' });
    expect(sha256File(row.file_path)).toBe(h.box.hash(CUT));
  }, 60_000);

  it('with it on, detects inline for a detect-mode show (file untouched), skips a show whose mode is off, leaves a clean cut-mode recording alone', async () => {
    await h.api.patch('/api/settings', { ad_removal_enabled: true });
    for (const name of ['Detect Show', 'Off Show', 'Clean Show']) await h.api.patch(`/api/shows/${showIds[name]}`, { enabled: true });
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 3, failed: 0 } });
    const detect = await rowOf(DETECT);
    expect(detect.ad_status).toBe('detected');
    const breaks = JSON.parse(detect.ad_breaks_json!) as Array<{ start: number; end: number }>;
    expect(breaks).toHaveLength(1);
    expect(Math.abs(breaks[0]!.start - BREAK_AT)).toBeLessThan(3);
    expect(sha256File(detect.file_path)).toBe(h.box.hash(DETECT));
    expect(fs.existsSync(`${detect.file_path}.orig`)).toBe(false);
    expect((await rowOf(OFF)).ad_status).toBe('unscanned');
    // Cut mode, nothing to cut: `no_breaks`, the file untouched and no `.orig`.
    const clean = await rowOf(CLEAN);
    expect(clean).toMatchObject({ ad_status: 'no_breaks', ad_breaks_json: '[]' });
    expect(sha256File(clean.file_path)).toBe(h.box.hash(CLEAN));
    expect(fs.existsSync(`${clean.file_path}.orig`)).toBe(false);
  }, 90_000);

  it('scans manually in the background: 202, then 409 while in flight, detect-only when the show is off', async () => {
    const first = await h.api.post(`/api/recordings/${OFF}/ad-scan`);
    expect(first.status).toBe(202);
    const second = await h.api.post(`/api/recordings/${OFF}/ad-scan`);
    expect(second.status).toBe(409);
    expect(second.body.error.owner).toBe('ad-scan');
    const row = await settled(OFF);
    expect(row.ad_status).toBe('detected');
    expect(sha256File(row.file_path)).toBe(h.box.hash(OFF));
  }, 60_000);

  it('cuts on a manual scan of a cut-mode show, and re-cuts a purged (tombstoned) row from its kept original', async () => {
    expect((await h.api.post(`/api/recordings/${CUT}/ad-scan`)).status).toBe(202);
    const cut = await settled(CUT);
    expect(cut.ad_status).toBe('cut');
    expect(sha256File(`${cut.file_path}.orig`)).toBe(h.box.hash(CUT));
    const cutHash = sha256File(cut.file_path);
    expect(cutHash).not.toBe(h.box.hash(CUT));
    expect(updates.filter((u) => u.box_id === CUT && u.phase === 'cutting').map((u) => u.detail)).toEqual(['segment 1/2', 'segment 2/2']);

    // The box deleted the recording (the cloud-delete pipeline sets purged_at): the local file remains.
    const db = new Database(path.join(h.dataDir, 'state.db'));
    db.prepare('UPDATE recordings SET purged_at = ? WHERE box_id = ?').run(Date.now(), CUT);
    db.close();
    h.service.recordings.invalidate();
    expect((await rowOf(CUT)).purged_at).not.toBeNull();
    expect((await h.api.post(`/api/recordings/${CUT}/ad-scan`)).status).toBe(202);
    const again = await settled(CUT);
    expect(again.ad_status).toBe('cut');
    // Detection ran on the kept original, so the breaks and the cut are the same; the original is still kept.
    expect(sha256File(`${again.file_path}.orig`)).toBe(h.box.hash(CUT));
    expect(Math.abs(JSON.parse(again.ad_breaks_json!)[0].start - BREAK_AT)).toBeLessThan(3);
  }, 90_000);

  it('gives detect_failed when the detector overruns its timeout, and cut_failed (original in place) in cut mode', async () => {
    scanTimeout = 100;
    try {
      expect((await h.api.post(`/api/recordings/${DETECT}/ad-scan`)).status).toBe(202);
      const row = await settled(DETECT);
      expect(row).toMatchObject({ status: 'done', ad_status: 'detect_failed', ad_error: 'the detector did not finish within 0 s' });
      expect(sha256File(row.file_path)).toBe(h.box.hash(DETECT));

      const before = sha256File((await rowOf(CUT)).file_path);
      expect((await h.api.post(`/api/recordings/${CUT}/ad-scan`)).status).toBe(202);
      const cut = await settled(CUT);
      expect(cut.ad_status).toBe('cut_failed');
      expect(cut.ad_error).toMatch(/did not finish within/);
      expect(sha256File(cut.file_path)).toBe(before);
    } finally {
      scanTimeout = null;
    }
    expect(fs.readdirSync(h.mediaRoot, { recursive: true }).some((p) => String(p).includes('.adcut-work'))).toBe(false);
  }, 60_000);

  it('shows an elapsed caption and no percent while scanning a recording whose duration cannot be read', async () => {
    tools.ffprobe = path.join(h.dir, 'no-such-ffprobe');
    try {
      const from = updates.length;
      expect((await h.api.post(`/api/recordings/${DETECT}/ad-scan`)).status).toBe(202);
      const row = await settled(DETECT);
      expect(row.ad_status).toBe('detected');
      const scanning = updates.slice(from).filter((u) => u.box_id === DETECT && u.phase === 'scanning');
      expect(scanning.length).toBeGreaterThan(0);
      for (const u of scanning) {
        expect(u.percent).toBeNull();
        expect(u.detail).toMatch(/^\d+s elapsed$|^\d+m \d\ds elapsed$/);
      }
    } finally {
      tools.ffprobe = defaultAdTools.ffprobe;
    }
  }, 60_000);

  it('answers 409 for a recording whose file is gone and 404 for an unknown one', async () => {
    expect((await h.api.post('/api/recordings/42/ad-scan')).status).toBe(404);
    const off = await rowOf(OFF);
    fs.renameSync(off.file_path, `${off.file_path}.moved`);
    try {
      const res = await h.api.post(`/api/recordings/${OFF}/ad-scan`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('file_missing');
    } finally {
      fs.renameSync(`${off.file_path}.moved`, off.file_path);
    }
  });

  it('puts the original back when a re-cut finds nothing to cut (a changed detector.ini)', async () => {
    const ini = path.join(h.dataDir, 'detector.ini');
    const before = fs.readFileSync(ini, 'utf8');
    // Without the synthetic scoring, comskip keeps everything of these clips.
    fs.writeFileSync(ini, 'detect_method=1\nmin_show_segment_length=10\n');
    try {
      const row = await rowOf(CUT);
      expect(fs.existsSync(`${row.file_path}.orig`)).toBe(true);
      expect((await h.api.post(`/api/recordings/${CUT}/ad-scan`)).status).toBe(202);
      const after = await settled(CUT);
      expect(after).toMatchObject({ ad_status: 'no_breaks', ad_breaks_json: '[]' });
      expect(sha256File(after.file_path)).toBe(h.box.hash(CUT));
      expect(fs.existsSync(`${after.file_path}.orig`)).toBe(false);
    } finally {
      fs.writeFileSync(ini, before);
    }
  }, 60_000);

  it('deletes kept originals in sync housekeeping once past ad_original_retention_days', async () => {
    const cutRow = await rowOf(CUT);
    // Recover the cut (the timeout test failed the last one) so the row is `cut` again.
    expect((await h.api.post(`/api/recordings/${CUT}/ad-scan`)).status).toBe(202);
    expect((await settled(CUT)).ad_status).toBe('cut');
    await h.syncAndWait();
    expect(fs.existsSync(`${cutRow.file_path}.orig`)).toBe(true);
    await h.api.patch('/api/settings', { ad_original_retention_days: 0 });
    await new Promise((r) => setTimeout(r, 5));
    await h.syncAndWait();
    expect(fs.existsSync(`${cutRow.file_path}.orig`)).toBe(false);
    expect(fs.existsSync(cutRow.file_path)).toBe(true);
  }, 90_000);

  it('gives a row its earlier state back when the service stops mid-scan, and leaves no work folder', async () => {
    // An earlier failure: a scan that completed would turn it into `detected`.
    const rw = new Database(path.join(h.dataDir, 'state.db'));
    rw.prepare("UPDATE recordings SET ad_status = 'detect_failed', ad_breaks_json = NULL WHERE box_id = ?").run(DETECT);
    rw.close();
    h.service.recordings.invalidate();
    const before = await rowOf(DETECT);
    expect(before.ad_status).toBe('detect_failed');
    expect((await h.api.post(`/api/recordings/${DETECT}/ad-scan`)).status).toBe(202);
    await waitFor('scanning', async () => ((await rowOf(DETECT)).ad_status === 'scanning' ? true : undefined));
    expect(h.service.guard.isBusy(DETECT)).toBe(true);
    await h.service.stop();
    const db = new Database(path.join(h.dataDir, 'state.db'), { readonly: true });
    const stored = db.prepare('SELECT ad_status, ad_breaks_json FROM recordings WHERE box_id = ?').get(DETECT);
    db.close();
    expect(stored).toEqual({ ad_status: before.ad_status, ad_breaks_json: before.ad_breaks_json });
    expect(fs.readdirSync(h.mediaRoot, { recursive: true }).some((p) => String(p).includes('.adcut-work'))).toBe(false);
    await h.restart();
  }, 60_000);

  it('returns rows stuck in scanning to unscanned at start', async () => {
    await h.service.stop();
    const db = new Database(path.join(h.dataDir, 'state.db'));
    db.prepare("UPDATE recordings SET ad_status = 'scanning' WHERE box_id = ?").run(OFF);
    db.close();
    await h.restart();
    expect((await rowOf(OFF)).ad_status).toBe('unscanned');
  }, 30_000);
});
