import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SimShow } from '../box/simulator/box-model.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { systemClock } from '../../core/clock.js';
import { startHarness, tempDir, type Harness } from '../testing/harness.js';
import { downloadToPartial } from './download.js';
import { defaultMediaGet } from './media-get.js';

/** Every file and folder under `root`, as absolute paths (symlinks not followed). */
function walk(root: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(root, { withFileTypes: true })) {
    const p = path.join(root, e.name);
    out.push(p);
    if (e.isDirectory()) out.push(...walk(p));
  }
  return out;
}

const inside = (root: string, p: string) => p === root || p.startsWith(root + path.sep);

/**
 * Runs `fn` and reports how far the process's memory rose above where it started, in MiB: the
 * high-water mark of RSS (the kernel's, so a spike inside one synchronous parse counts too).
 */
async function peakRssGrowthMb<T>(fn: () => Promise<T>): Promise<{ value: T; growthMb: number }> {
  const start = process.memoryUsage.rss();
  const value = await fn();
  const peak = Math.max(process.resourceUsage().maxRSS * 1024, process.memoryUsage.rss());
  return { value, growthMb: (peak - start) / (1024 * 1024) };
}

describe('a hostile device answering as the recording box', () => {
  // The service's folder sits four levels below `parent`: a path that climbs out of the media root
  // lands inside `parent`, where the test can see it (never in a shared or system folder).
  let parent: string;
  let h: Harness;
  beforeAll(async () => {
    parent = tempDir('recordings-hostile-');
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 700000001, 1, () => 2000)] }, dir: path.join(parent, 'a', 'b', 'c', 'd') });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids' });
    // Pin the box so the SSDP responder's other devices play no part.
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => {
    await h.cleanup();
    fs.rmSync(parent, { recursive: true, force: true });
  });
  afterEach(() => h.box.setHostile(undefined));

  const expectNothingOutsideTheServiceFolder = () => {
    for (const p of walk(parent)) {
      if (inside(h.dir, p) || inside(p, h.dir)) continue; // the service folder and its ancestors a/b/c
      throw new Error(`written outside the service folder: ${p}`);
    }
    for (const p of fs.readdirSync(h.dir)) expect(p === 'media' || p === 'data').toBe(true);
    for (const p of fs.readdirSync(h.dataDir)) expect(p.startsWith('state.db')).toBe(true);
  };

  for (const where of ['envelope', 'didl'] as const) {
    it(`survives a ~118 KiB entity-expansion listing (DTD in the ${where}): run fails with a clear error, memory stays bounded`, async () => {
      h.box.setHostile({ entityExpansion: where });
      const { value: run, growthMb } = await peakRssGrowthMb(() => h.syncAndWait());
      expect(run.status).toBe('error');
      expect(run.summary.error).toMatch(/DTD or entity declarations is refused/);
      // Expanded, the listing is ~250-350 million characters (0.5-0.7 GB as a JS string).
      expect(growthMb).toBeLessThan(200);
      expect((await h.api.get('/healthz')).status).toBe(200);
      expect(h.box.browses.at(-1)!.returned).toBe(-1); // the hostile answer was really served
      expectNothingOutsideTheServiceFolder();
    });
  }

  it('stops reading a 60 MB listing early: run fails naming the size limit, memory stays bounded', async () => {
    h.box.setHostile({ hugeListingBytes: 60 * 1024 * 1024 });
    const { value: run, growthMb } = await peakRssGrowthMb(() => h.syncAndWait());
    expect(run.status).toBe('error');
    expect(run.summary.error).toMatch(/larger than \d+ bytes: refused/);
    expect(growthMb).toBeLessThan(200);
    expect((await h.api.get('/healthz')).status).toBe(200);
    expectNothingOutsideTheServiceFolder();
  });
});

describe('a hostile box listing traversal in show names, titles and ids', () => {
  let parent: string;
  let h: Harness;
  const up = (n: number, sep = '/') => Array.from({ length: n }, () => '..').join(sep);
  beforeAll(async () => {
    parent = tempDir('recordings-traversal-');
    const item = (id: string, title: string) => ({ id, title, length: 1500 });
    const hostileShow: SimShow = {
      title: `${up(8)}/Bluey escape`,
      items: [
        item('100', 'S1 E1 - Same name'),
        // Same file name as 100: the id goes into the ` [id]` suffix.
        item(`${up(9)}/id-escape`, 'S1 E1 - Same name'),
        item('..', 'S1 E1 - Same name'),
        item(`${up(9, '\\')}\\win-id`, `${up(9, '\\')}\\win-title`),
        item(`${parent}/abs-id`, `${parent}/abs-title`),
        item('nul\0id', 'S1 E3 - dropped'),
        item('nul-title', `S1 E4 - a\0b/${up(9)}/c`),
        item('dotted', `${up(9)}/etc/x`),
        item('long', `S1 E5 - ${'x'.repeat(100_000)}`),
      ],
    };
    h = await startHarness({ box: { shows: [hostileShow] }, dir: path.join(parent, 'a', 'b', 'c', 'd') });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => {
    await h.cleanup();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('writes every file inside the media root and nothing anywhere else', async () => {
    const run = await h.syncAndWait();
    expect(['ok', 'partial']).toContain(run.status);
    const rows = (await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string; status: string; file_path: string | null }>;
    // The id with a NUL is refused at parse time; the others are processed.
    expect(rows.map((r) => r.box_id)).not.toContain('nul\0id');
    expect(rows.length).toBe(8);
    const done = rows.filter((r) => r.status === 'done');
    expect(done.length).toBeGreaterThanOrEqual(6);
    const realRoot = fs.realpathSync(h.mediaRoot);
    for (const r of done) {
      expect(inside(realRoot, fs.realpathSync(r.file_path!))).toBe(true);
      expect(path.basename(r.file_path!).length).toBeLessThan(255);
    }
    const suffixed = done.find((r) => r.box_id.endsWith('id-escape'))!.file_path!;
    expect(path.dirname(suffixed)).toBe(path.dirname(done.find((r) => r.box_id === '100')!.file_path!));
    expect(path.basename(suffixed)).toMatch(/^Bluey escape - S01E01 - Same name \[.*id-escape\]\.ts$/);

    for (const p of walk(parent)) {
      if (inside(h.dir, p) || inside(p, h.dir)) continue;
      throw new Error(`written outside the service folder: ${p}`);
    }
    for (const p of walk(h.dir)) if (!inside(h.mediaRoot, p) && p !== h.dataDir) expect(path.basename(p)).toMatch(/^state\.db/);
    // Everything in the media root is under the show's folder, in one season folder per season.
    for (const p of walk(h.mediaRoot)) expect(inside(path.join(h.mediaRoot, 'Kids'), p) || p === path.join(h.mediaRoot, 'Kids')).toBe(true);
    expect(fs.readdirSync(path.join(h.mediaRoot, 'Kids')).sort()).toEqual(['Season 00', 'Season 01']);
  });
});

describe('the real-path check before a download', () => {
  let parent: string;
  let h: Harness;
  beforeAll(async () => {
    parent = tempDir('recordings-symlink-');
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 700000001, 2, () => 2000)] }, dir: path.join(parent, 'svc') });
    fs.mkdirSync(path.join(parent, 'outside'));
    // A folder inside the media root that is really a symlink to a folder outside it.
    fs.symlinkSync(path.join(parent, 'outside'), path.join(h.mediaRoot, 'Kids'), 'dir');
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids/Bluey' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => {
    await h.cleanup();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('refuses a destination reached through a symlink leading outside the media root, writing nothing there', async () => {
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ failed: 2, downloaded: 0 });
    const rows = (await h.api.get('/api/recordings')).body.recordings as Array<{ status: string; error: string }>;
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.status).toBe('failed');
      expect(r.error).toMatch(/leads outside the media root/);
    }
    expect(fs.readdirSync(path.join(parent, 'outside'))).toEqual([]);
    // No media request was made for a destination that was refused.
    expect(h.box.requests.filter((q) => q.method === 'GET')).toEqual([]);
  });
});

describe('a box sending more media than its listing says', () => {
  let h: Harness;
  let server: http.Server;
  let endless = '';
  beforeAll(async () => {
    const show = sampleShow('Bluey', 700000001, 1, () => 20 * 1024 * 1024);
    show.items[0]!.listedSize = 1000;
    h = await startHarness({ box: { shows: [show] } });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    // A body without a length that never ends (chunked).
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/vnd.dlna.mpeg-tts' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      let open = true;
      res.on('close', () => (open = false));
      const pump = () => {
        while (open) if (!res.write(chunk)) return void res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    endless = `http://127.0.0.1:${(server.address() as AddressInfo).port}/web/1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await h.cleanup();
  });

  it('never writes more than the listing says when the box announces far more (treated as still recording)', async () => {
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ failed: 0, downloaded: 0 });
    const row = (await h.api.get('/api/recordings')).body.recordings[0];
    expect(row.error).toBe('currently recording');
    const files = walk(h.mediaRoot).filter((p) => fs.statSync(p).isFile());
    for (const f of files) expect(fs.statSync(f).size).toBeLessThanOrEqual(1000);
  });

  it('cuts off a body without a length at the listed size', async () => {
    const partialPath = path.join(h.dir, 'endless.ts.partial');
    const result = await downloadToPartial({ url: endless, partialPath, get: defaultMediaGet, clock: systemClock, signal: new AbortController().signal, expectedSize: 1024 * 1024 });
    expect(result).toMatchObject({ recorded: false, warning: 'currently recording', grew: true });
    expect(fs.statSync(partialPath).size).toBeLessThanOrEqual(1024 * 1024);
  });
});
