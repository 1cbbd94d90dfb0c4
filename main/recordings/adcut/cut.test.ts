import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File, tempDir } from '../testing/harness.js';
import { keepSegments, totalSeconds } from './breaks.js';
import { CutFailed, cutRecording } from './cut.js';
import { swapIntoPlace } from './swap.js';
import { copyRecording, durationOf, makeClip, makeDiscontinuousClip, streamTypes, TWO_BREAK_CLIP, TWO_BREAK_CLIP_BREAKS } from './testing/clips.js';
import { defaultAdTools } from './tools.js';
import { WORK_DIR_NAME, withWorkDir } from './work-dir.js';

const PARTS = TWO_BREAK_CLIP;
const BREAKS = TWO_BREAK_CLIP_BREAKS;

describe('cutting with the real ffmpeg: keep segments, stream copy, verify, swap', () => {
  let dir: string;
  let clip: string;
  let dataClip: string;
  beforeAll(() => {
    dir = tempDir('adcut-cut-');
    // B-frames: the joins must keep decode order right, as broadcast H.264 needs.
    clip = makeClip(PARTS, { bframes: true });
    dataClip = makeClip(PARTS, { dataStream: true, bframes: true });
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const copyOf = (src: string, name: string) => copyRecording(dir, src, name);
  const cut = (file: string, breaks = BREAKS, segments: string[] = []) =>
    withWorkDir(file, (workDir) =>
      cutRecording({ tools: defaultAdTools, file, source: file, breaks, workDir, onSegment: (i, n) => segments.push(`segment ${i}/${n}`) }),
    );

  it('cuts to the length of the keep segments, keeps the original as .orig and leaves no work folder', async () => {
    // A folder name with a quote and spaces: the concat list must quote it right.
    const file = copyOf(clip, "Grey's Anatomy (AU)");
    const originalHash = sha256File(file);
    const duration = durationOf(file);
    const segments: string[] = [];
    const result = await cut(file, BREAKS, segments);

    const keep = keepSegments(BREAKS, duration);
    expect(keep).toHaveLength(3);
    expect(segments).toEqual(['segment 1/3', 'segment 2/3', 'segment 3/3']);
    // 40 + 40 + 30 s of programme (plus the clip's few ms of container overhang).
    expect(Math.abs(durationOf(file) - totalSeconds(keep))).toBeLessThan(2);
    expect(Math.abs(durationOf(file) - 110)).toBeLessThan(2);
    expect(result.outputSeconds).toBeCloseTo(durationOf(file), 1);
    expect(sha256File(`${file}.orig`)).toBe(originalHash);
    expect(streamTypes(file)).toEqual(['video', 'audio']);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['Show - S01E01 - Pilot.ts', 'Show - S01E01 - Pilot.ts.orig']);
    // The joins play cleanly: decoding the whole output reports nothing (no non-monotonic timestamps).
    const decode = spawnSync('ffmpeg', ['-nostdin', '-v', 'warning', '-i', file, '-f', 'null', '-']);
    expect(decode.status).toBe(0);
    expect(decode.stderr.toString()).toBe('');
  }, 60_000);

  it('drops a DVB-style data stream that the muxer cannot copy (where `-map 0` aborts)', async () => {
    const file = copyOf(dataClip, 'data');
    expect(streamTypes(file)).toEqual(['video', 'audio', 'unknown']);
    const naive = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', file, '-map', '0', '-c', 'copy', '-f', 'mpegts', path.join(dir, 'naive.ts')]);
    expect(naive.status).not.toBe(0);

    await cut(file);
    expect(streamTypes(file)).toEqual(['video', 'audio']);
    expect(Math.abs(durationOf(file) - 110)).toBeLessThan(2);
    expect(fs.existsSync(`${file}.orig`)).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(file), WORK_DIR_NAME))).toBe(false);
  }, 60_000);

  it('leaves the original in place when the output does not verify', async () => {
    const file = copyOf(makeDiscontinuousClip(), 'glitch');
    const hash = sha256File(file);
    const err = await cut(file, [{ start: 30, end: 40 }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CutFailed);
    expect((err as Error).message).toMatch(/verification failed/);
    expect(sha256File(file)).toBe(hash);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['Show - S01E01 - Pilot.ts']);
  }, 60_000);

  it('stops at a segment that fails to extract (ffmpeg fallback): the others stop too, the original stays, no work folder', async () => {
    // 192-byte M2TS packets: the packet cutter hands this recording to ffmpeg.
    const m2ts = path.join(dir, 'segment-fails.m2ts');
    expect(spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', clip, '-map', '0', '-c', 'copy', '-f', 'mpegts', '-mpegts_m2ts_mode', '1', m2ts]).status).toBe(0);
    const file = copyOf(m2ts, 'segment-fails');
    const hash = sha256File(file);
    // An ffmpeg that fails on the second keep segment (it starts at the end of the first break).
    const ffmpeg = path.join(dir, 'ffmpeg-fails-on-63.sh');
    fs.writeFileSync(ffmpeg, '#!/bin/sh\ncase "$*" in *"-ss 63.000 "*) echo "disk read error" >&2; exit 1;; esac\nexec ffmpeg "$@"\n', { mode: 0o755 });
    const segments: string[] = [];
    const err = await withWorkDir(file, (workDir) =>
      cutRecording({ tools: { ...defaultAdTools, ffmpeg }, file, source: file, breaks: BREAKS, workDir, onSegment: (i, n) => segments.push(`${i}/${n}`) }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CutFailed);
    expect((err as Error).message).toBe('extracting segment 2/3 failed: disk read error');
    expect(segments.slice(0, 2)).toEqual(['1/3', '2/3']);
    expect(sha256File(file)).toBe(hash);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['Show - S01E01 - Pilot.ts']);
  }, 60_000);

  it('refuses to produce an empty output when the breaks cover everything', async () => {
    const file = copyOf(clip, 'all-ads');
    const hash = sha256File(file);
    await expect(cut(file, [{ start: 0, end: 10_000 }])).rejects.toThrow(/nothing to keep/);
    expect(sha256File(file)).toBe(hash);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['Show - S01E01 - Pilot.ts']);
  }, 30_000);

  it('fails cleanly on a file ffmpeg cannot read', async () => {
    const folder = path.join(dir, 'junk');
    fs.mkdirSync(folder);
    const file = path.join(folder, 'junk.ts');
    fs.writeFileSync(file, Buffer.alloc(10_000, 1));
    await expect(cut(file)).rejects.toBeInstanceOf(CutFailed);
    expect(fs.readdirSync(folder)).toEqual(['junk.ts']);
  }, 30_000);

  it('rolls the first rename of the swap back when the second one fails', () => {
    const folder = path.join(dir, 'rollback');
    fs.mkdirSync(folder);
    const file = path.join(folder, 'a.ts');
    fs.writeFileSync(file, 'original');
    expect(() => swapIntoPlace(file, path.join(folder, 'missing-output.ts'))).toThrow();
    expect(fs.readFileSync(file, 'utf8')).toBe('original');
    expect(fs.existsSync(`${file}.orig`)).toBe(false);
  });

  it('keeps the first original when a cut recording is cut again', () => {
    const folder = path.join(dir, 'recut');
    fs.mkdirSync(folder);
    const file = path.join(folder, 'a.ts');
    fs.writeFileSync(file, 'first cut');
    fs.writeFileSync(`${file}.orig`, 'original');
    fs.writeFileSync(path.join(folder, 'out.ts'), 'second cut');
    swapIntoPlace(file, path.join(folder, 'out.ts'));
    expect(fs.readFileSync(file, 'utf8')).toBe('second cut');
    expect(fs.readFileSync(`${file}.orig`, 'utf8')).toBe('original');
  });
});
