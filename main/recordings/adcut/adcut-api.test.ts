import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgressEntry, ProgressUpdate } from '../progress.js';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';
import { durationOf, makeClip, madeBreaks, twoAdBreak, type ClipPart } from './testing/clips.js';

// Programme (test pattern, station logo, quiet tone) | black, a loud ad, black, a loud ad, black | programme.
const PARTS: ClipPart[] = [{ kind: 'programme', seconds: 130 }, ...twoAdBreak(15), { kind: 'programme', seconds: 130 }];
const CUT_ID = '903106335';
const PARTIAL_ID = '903106336';

interface Row {
  box_id: string;
  status: string;
  ad_status: string;
  ad_breaks_json: string | null;
  file_path: string;
  progress: ProgressEntry | null;
}

describe('ad removal end to end: a cut-mode show, a synced recording, the bundled detector configuration', () => {
  let h: Harness;
  let clip: Buffer;
  const phases: Array<ProgressUpdate & { box_id: string }> = [];
  beforeAll(async () => {
    clip = fs.readFileSync(makeClip(PARTS));
    h = await startHarness({
      box: {
        shows: [
          {
            title: 'Gardening Australia',
            items: [
              { id: CUT_ID, title: 'S34 E5 - Autumn Jobs - Fri 01 Mar', length: clip.length, content: clip, duration: '0:04:53' },
              // Listed 5 MB bigger than what the box serves: `partial`, never scanned.
              { id: PARTIAL_ID, title: 'S34 E6 - Bulbs - Fri 08 Mar', length: clip.length, listedSize: clip.length + 5_000_000, content: clip },
            ],
          },
        ],
      },
    });
    // Watch every progress update the service publishes, as well as what the API shows.
    const set = h.service.progress.set.bind(h.service.progress);
    h.service.progress.set = (boxId, u) => {
      phases.push({ box_id: boxId, ...u });
      return set(boxId, u);
    };
    expect((await h.api.post('/api/shows', { name: 'gardening', dest_folder: 'Gardening Australia', ad_mode: 'cut' })).status).toBe(201);
    expect((await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, ad_removal_enabled: true })).status).toBe(200);
  }, 60_000);
  afterAll(async () => h.cleanup());

  it('detects the break, cuts it out to the programme length, keeps the original and shows progress', async () => {
    const settings = (await h.api.get('/api/settings')).body;
    expect(settings.detector_config.source).toBe('bundled');

    const start = await h.api.post('/api/sync');
    expect(start.status).toBe(202);
    const seen = new Set<string>();
    while (h.service.engine.current()) {
      const rows = (await h.api.get('/api/recordings')).body.recordings as Row[];
      for (const r of rows) {
        if (!r.progress) continue;
        seen.add(r.progress.phase);
        if (r.progress.phase === 'scanning') {
          expect(r.ad_status).toBe('scanning');
          expect(r.progress.percent).toBeGreaterThanOrEqual(0);
          expect(r.progress.percent).toBeLessThanOrEqual(99);
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen.has('scanning')).toBe(true);

    const rows = (await h.api.get('/api/recordings')).body.recordings as Row[];
    const row = rows.find((r) => r.box_id === CUT_ID)!;
    expect(row).toMatchObject({ status: 'done', ad_status: 'cut', progress: null });
    const breaks = JSON.parse(row.ad_breaks_json!) as Array<{ start: number; end: number }>;
    const made = madeBreaks(PARTS)[0]!; // 130 s to 163 s
    expect(breaks).toHaveLength(1);
    expect(Math.abs(breaks[0]!.start - made.start)).toBeLessThan(3);
    expect(Math.abs(breaks[0]!.end - made.end)).toBeLessThan(3);

    // Two 130 s programme segments remain; the original is kept byte for byte.
    expect(Math.abs(durationOf(row.file_path) - 260)).toBeLessThan(4);
    expect(sha256File(`${row.file_path}.orig`)).toBe(h.box.hash(CUT_ID));
    expect(fs.readdirSync(h.mediaRoot, { recursive: true }).some((p) => String(p).includes('.adcut-work'))).toBe(false);

    const mine = phases.filter((p) => p.box_id === CUT_ID).map((p) => (p.phase === 'cutting' ? `cutting ${p.detail}` : p.phase));
    const order = [...new Set(mine)];
    expect(order).toEqual(['downloading', 'scanning', 'cutting segment 1/2', 'cutting segment 2/2', 'verifying']);
  }, 120_000);

  it('never scans a partial download', async () => {
    const rows = (await h.api.get('/api/recordings')).body.recordings as Row[];
    expect(rows.find((r) => r.box_id === PARTIAL_ID)).toMatchObject({ status: 'partial', ad_status: 'unscanned' });
    expect(phases.filter((p) => p.box_id === PARTIAL_ID).every((p) => p.phase === 'downloading')).toBe(true);
  });
});
