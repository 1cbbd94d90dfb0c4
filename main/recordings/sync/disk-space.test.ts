import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';
import { tmpfsUnavailable, tryMountTmpfs, unmount } from '../../core/testing/tmpfs.js';
import { formatBytes, spaceShortfall, statfsFreeBytes } from './disk-space.js';

const MiB = 1024 * 1024;

describe('free-space arithmetic', () => {
  it('formats sizes in binary units and names needs and free in the reason', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(21 * MiB)).toBe('21.0 MiB');
    expect(formatBytes(7.9 * MiB)).toBe('7.90 MiB');
    expect(formatBytes(2.5 * 1024 * MiB)).toBe('2.50 GiB');
    expect(spaceShortfall(() => 30 * MiB, '/m', 20 * MiB, MiB)).toBeNull();
    expect(spaceShortfall(() => 8 * MiB, '/m', 20 * MiB, MiB)).toMatch(/^not enough space \(needs 21\.0 MiB, free 8\.00 MiB\) in \/m: /);
    // A probe that fails does not block the download (the write reports a full disk itself).
    expect(
      spaceShortfall(
        () => {
          throw new Error('EIO');
        },
        '/m',
        1,
        0,
      ),
    ).toBeNull();
  });
});

const cannotMount = tmpfsUnavailable(os.tmpdir());
if (cannotMount) console.log(`SKIPPED the small-disk sync tests: ${cannotMount}`);

const freeOn = (dir: string) => {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
};
const partialFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.partial'));

describe.skipIf(cannotMount !== null)('sync onto a small disk (an 8 MiB tmpfs the test mounts)', () => {
  let h: Harness;
  let mounted = false;
  const ids = { small1: '910000001', small2: '910000002', big: '910000003', small3: '910000004', flaky: '910000005' };
  beforeAll(async () => {
    const show = sampleShow('Small Disk Show', 910000001, 5, (i) => [1 * MiB, 1.5 * MiB, 20 * MiB, 1 * MiB, 3 * MiB][i]!);
    // The flaky item keeps dropping mid-body: it leaves a .partial behind each time.
    Object.assign(show.items[4]!, { dropAfterBytes: 700 * 1024, dropTimes: 1000 });
    h = await startHarness({ box: { shows: [show] } });
    fs.mkdirSync(h.mediaRoot, { recursive: true });
    const why = tryMountTmpfs(h.mediaRoot, '8m');
    if (why) throw new Error(why);
    mounted = true;
    await h.api.post('/api/shows', { name: 'small disk', dest_folder: 'Shows' });
    const saved = await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, free_space_margin_mb: 1 });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await h?.service.stop().catch(() => undefined);
    if (mounted) unmount(h.mediaRoot);
    await h?.cleanup();
  });

  const rows = async () =>
    new Map(((await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string; status: string; error: string | null; file_path: string }>).map((r) => [r.box_id, r]));

  it('skips the item that cannot fit with the reason, lands the others, and the run is partial', async () => {
    const run = await h.syncAndWait();
    expect(run.status).toBe('partial');
    expect(run.summary).toMatchObject({ downloaded: 3, skipped: 1, no_space: 1, failed: 1 });
    const byId = await rows();
    const big = byId.get(ids.big)!;
    expect(big.status).toBe('skipped');
    expect(big.error).toMatch(/^not enough space \(needs 21\.0 MiB, free \d+(\.\d+)? MiB\)/);
    expect(run.summary.space_error).toBe(big.error);
    for (const id of [ids.small1, ids.small2, ids.small3]) {
      const r = byId.get(id)!;
      expect(r.status).toBe('done');
      expect(sha256File(r.file_path)).toBe(h.box.hash(id));
    }
    // The big item was never fetched: no bytes of it fill the disk.
    expect(h.box.requests.filter((r) => r.path === `/web/${ids.big}` && r.method === 'GET')).toEqual([]);
    expect(partialFiles(h.mediaRoot).map((f) => path.basename(f))).toEqual(['Small Disk Show - S01E05 - Episode 5 & More.ts.partial']);
  });

  it('reports /healthz degraded with the reason while the disk is too small', async () => {
    const health = (await h.api.get('/healthz')).body;
    expect(health.status).toBe('degraded');
    expect(health.reasons.join(' ')).toMatch(/could not fit 1 recording: not enough space \(needs 21\.0 MiB/);
  });

  it('leaks no space across syncs, and removes the partial file of an item the box no longer has', async () => {
    const flakyFile = path.join(h.mediaRoot, 'Shows/Season 01/Small Disk Show - S01E05 - Episode 5 & More.ts.partial');
    const pages = (bytes: number) => Math.ceil(bytes / 4096) * 4096;
    const before = freeOn(h.mediaRoot);
    const partialBefore = fs.statSync(flakyFile).size;
    // The flaky item resumes and drops again: its partial file grows, nothing else is written.
    const second = await h.syncAndWait();
    expect(second.summary).toMatchObject({ downloaded: 0, already_done: 3, no_space: 1 });
    const partialAfter = fs.statSync(flakyFile).size;
    expect(partialAfter).toBeGreaterThan(partialBefore);
    expect(freeOn(h.mediaRoot)).toBe(before - (pages(partialAfter) - pages(partialBefore)));
    // The box deletes the flaky recording: housekeeping removes its partial file and the space returns.
    h.box.remove(ids.flaky);
    const third = await h.syncAndWait();
    expect(third.summary).toMatchObject({ partials_removed: 1 });
    expect(partialFiles(h.mediaRoot)).toEqual([]);
    expect((await rows()).get(ids.flaky)!.error).toBe('no longer on the box: its partial download was removed');
    const afterCleanup = freeOn(h.mediaRoot);
    const fourth = await h.syncAndWait();
    expect(fourth.summary).toMatchObject({ downloaded: 0, no_space: 1 });
    expect(freeOn(h.mediaRoot)).toBe(afterCleanup);
    // What is on the disk is exactly the finished recordings.
    const files = fs.readdirSync(h.mediaRoot, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.map((f) => fs.statSync(path.join(h.mediaRoot, f)).size).reduce((a, b) => a + b, 0)).toBe(3.5 * MiB);
  });

  it('downloads the big item once the disk grows, and /healthz is ok again', async () => {
    execFileSync('mount', ['-o', 'remount,size=40m', h.mediaRoot]);
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 1, skipped: 0 } });
    const big = (await rows()).get(ids.big)!;
    expect(big).toMatchObject({ status: 'done', error: null });
    expect(sha256File(big.file_path)).toBe(h.box.hash(ids.big));
    expect((await h.api.get('/healthz')).body).toEqual({ status: 'ok' });
  });
});

describe.skipIf(cannotMount !== null)('a disk that fills up during a download (a 6 MiB tmpfs)', () => {
  let h: Harness;
  let mounted = false;
  /** Sync 1 believes there is plenty of room (another program freed and refilled the disk meanwhile). */
  let lie = true;
  beforeAll(async () => {
    const show = sampleShow('Full Disk Show', 920000001, 3, (i) => [20 * MiB, 1 * MiB, 1 * MiB][i]!);
    h = await startHarness({ box: { shows: [show] }, deps: { freeSpace: (dir) => (lie ? 2 ** 40 : statfsFreeBytes(dir)) } });
    fs.mkdirSync(h.mediaRoot, { recursive: true });
    const why = tryMountTmpfs(h.mediaRoot, '6m');
    if (why) throw new Error(why);
    mounted = true;
    await h.api.post('/api/shows', { name: 'full disk', dest_folder: 'Shows' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, free_space_margin_mb: 0 });
  });
  afterAll(async () => {
    await h?.service.stop().catch(() => undefined);
    if (mounted) unmount(h.mediaRoot);
    await h?.cleanup();
  });

  it('says the disk is full, then gives the partial bytes of the item that cannot fit back so the others land', async () => {
    const first = await h.syncAndWait();
    expect(first.summary).toMatchObject({ downloaded: 0, failed: 3 });
    const rows1 = (await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string; error: string }>;
    for (const r of rows1) expect(r.error).toMatch(/^the disk is full: cannot write .+ \(ENOSPC\); free up space there, the next sync resumes$/);
    expect(freeOn(h.mediaRoot)).toBeLessThan(MiB);

    lie = false;
    const second = await h.syncAndWait();
    expect(second).toMatchObject({ status: 'partial', summary: { downloaded: 2, no_space: 1, failed: 0 } });
    const rows2 = new Map(((await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string; status: string; error: string; file_path: string }>).map((r) => [r.box_id, r]));
    expect(rows2.get('920000001')!.status).toBe('skipped');
    expect(rows2.get('920000001')!.error).toMatch(/^not enough space \(needs [\d.]+ MiB, free [\d.]+ (KiB|bytes)\) .*\(its [\d.]+ MiB partial download was removed to give the space back\)$/);
    for (const id of ['920000002', '920000003']) expect(sha256File(rows2.get(id)!.file_path)).toBe(h.box.hash(id));
    expect(partialFiles(h.mediaRoot)).toEqual([]);
  });
});
