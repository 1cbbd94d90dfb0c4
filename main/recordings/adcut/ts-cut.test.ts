import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillDisk, tmpfsUnavailable, tryMountTmpfs, unmount } from '../../core/testing/tmpfs.js';
import { sha256File, tempDir } from '../testing/harness.js';
import { keepSegments } from './breaks.js';
import { CutFailed, cutRecording } from './cut.js';
import { copyRecording, durationOf, makeClip, streamTypes, TWO_BREAK_CLIP, TWO_BREAK_CLIP_BREAKS } from './testing/clips.js';
import { defaultAdTools } from './tools.js';
import { cutTs } from './ts-cut.js';
import { WORK_DIR_NAME, withWorkDir } from './work-dir.js';

const PARTS = TWO_BREAK_CLIP;
const BREAKS = TWO_BREAK_CLIP_BREAKS;

/** The loudest sample of a file's sound, in dB (a sine of amplitude 1/8: programme x 0.15 ≈ -34.5 dB, ads x 0.9 ≈ -19 dB). */
function maxVolume(file: string): number {
  const r = spawnSync('ffmpeg', ['-nostdin', '-i', file, '-map', '0:a', '-af', 'volumedetect', '-f', 'null', '-']);
  const m = /max_volume: (-?[\d.]+) dB/.exec(r.stderr.toString());
  if (!m) throw new Error(`no volume for ${file}`);
  return Number(m[1]);
}

/** Presentation times (s) of a file's video and audio packets, as a player reads them. */
function packetTimes(file: string): { video: number[]; audio: number[] } {
  const r = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'packet=codec_type,pts_time', '-of', 'json', file], { maxBuffer: 64 * 1024 * 1024 });
  const packets = (JSON.parse(r.stdout.toString()) as { packets: Array<{ codec_type: string; pts_time: string }> }).packets;
  const of = (type: string) => packets.filter((p) => p.codec_type === type).map((p) => Number(p.pts_time));
  return { video: of('video'), audio: of('audio') };
}

const gaps = (xs: number[]) => xs.slice(1).map((x, i) => x - xs[i]!);

describe('the ad cut by copying TS packets (one read, no ffmpeg)', () => {
  let dir: string;
  let clip: string;
  beforeAll(() => {
    dir = tempDir('adcut-tscut-');
    clip = makeClip(PARTS, { bframes: true });
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const copyOf = (src: string, name: string) => copyRecording(dir, src, name);
  const cut = (file: string, breaks = BREAKS) => withWorkDir(file, (workDir) => cutRecording({ tools: defaultAdTools, file, source: file, breaks, workDir }));

  it('leaves the ads out, keeps picture and sound in step with no holes at the joins, and decodes cleanly', async () => {
    const file = copyOf(clip, 'packets');
    expect(maxVolume(file)).toBeGreaterThan(-22); // the source has the loud ads
    const result = await cut(file);
    expect(result.method).toBe('packets');
    expect(Math.abs(durationOf(file) - 110)).toBeLessThan(1);
    expect(streamTypes(file)).toEqual(['video', 'audio']);
    // No ad sound left: only the quiet programme tone.
    expect(maxVolume(file)).toBeLessThan(-30);

    const { video, audio } = packetTimes(file);
    // The picture runs on frame by frame (25 fps) across both joins: no jump, no repeat.
    const frames = [...video].sort((a, b) => a - b);
    expect(frames.length).toBeGreaterThan(110 * 25 - 10);
    expect(Math.max(...gaps(frames))).toBeLessThan(0.05);
    expect(Math.min(...gaps(frames))).toBeGreaterThan(0.03);
    // The sound never runs backwards (no overlap at a join) and never drops out for long: at a join it
    // loses at most the two audio PES packets that straddle the cut points (ffmpeg's muxer packs about
    // 0.37 s of this 64 kb/s sound into one; broadcasters usually one frame of ~24-32 ms).
    expect(Math.min(...gaps(audio))).toBeGreaterThan(0);
    expect(Math.max(...gaps(audio))).toBeLessThan(0.8);
    // Sound and picture start and end together, so they stay in step after each join.
    expect(Math.abs(audio[0]! - frames[0]!)).toBeLessThan(0.5);
    expect(Math.abs(audio[audio.length - 1]! - frames[frames.length - 1]!)).toBeLessThan(0.5);

    const decode = spawnSync('ffmpeg', ['-nostdin', '-v', 'warning', '-i', file, '-f', 'null', '-']);
    expect(decode.status).toBe(0);
    expect(decode.stderr.toString()).toBe('');
  }, 60_000);

  it('cuts a recording whose first and last parts are breaks', async () => {
    const file = copyOf(clip, 'edges');
    const result = await cut(file, [
      { start: 0, end: 63 },
      { start: 103, end: 200 },
    ]);
    expect(result.method).toBe('packets');
    // Only 63..103 s is kept: the programme between the two ad breaks.
    expect(Math.abs(durationOf(file) - 40)).toBeLessThan(1);
    expect(maxVolume(file)).toBeLessThan(-30);
    // It starts with the programme tables (PAT, then PMT), so a player can start at the first byte,
    // and on a keyframe: the whole file decodes without a warning.
    const head = fs.readFileSync(file).subarray(0, 2 * 188);
    const pid = (at: number) => ((head[at + 1]! & 0x1f) << 8) | head[at + 2]!;
    expect(pid(0)).toBe(0);
    expect(head[188 + 5 + head[188 + 4]!]).toBe(0x02); // PMT table id
    const decode = spawnSync('ffmpeg', ['-nostdin', '-v', 'warning', '-i', file, '-f', 'null', '-']);
    expect(decode.stderr.toString()).toBe('');
  }, 60_000);

  it('snaps every cut point to the first keyframe at or after it, so each kept stretch decodes on its own', async () => {
    const probe = spawnSync('ffprobe', ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts_time,flags', '-of', 'json', clip], { maxBuffer: 64 * 1024 * 1024 });
    const packets = (JSON.parse(probe.stdout.toString()) as { packets: Array<{ pts_time: string; flags: string }> }).packets;
    const start = Math.min(...packets.map((p) => Number(p.pts_time)));
    const keyframes = packets.filter((p) => p.flags.includes('K')).map((p) => Number(p.pts_time) - start);
    // Cut points half a second off the once-a-second keyframes.
    const breaks = [
      { start: 40.5, end: 63.5 },
      { start: 103.5, end: 126.5 },
    ];
    const folder = path.join(dir, 'snap');
    fs.mkdirSync(folder);
    const timeline = { start, duration: durationOf(clip) };
    const keep = keepSegments(breaks, timeline.duration);
    const { segments } = await cutTs({ source: clip, output: path.join(folder, 'out.ts'), keep, startTime: start, duration: timeline.duration });
    expect(segments).toHaveLength(3);
    const firstKeyAtOrAfter = (t: number) => keyframes.find((k) => k >= t - 0.001)!;
    segments.forEach((seg, i) => {
      expect(seg.start).toBeCloseTo(firstKeyAtOrAfter(keep[i]!.start), 3);
      if (i < 2) expect(seg.end).toBeCloseTo(firstKeyAtOrAfter(keep[i]!.end), 3);
    });
    expect(segments[1]!.start).toBeGreaterThan(63.5);
  }, 60_000);

  it('cuts a recording whose clock wraps (2^33 at 90 kHz, every 26.5 h) between the two breaks', async () => {
    const wrapped = path.join(dir, 'wrapped.ts');
    // Shifted so the 33-bit clock wraps about 80 s in (ffprobe then gives a negative start_time).
    const offset = String(2 ** 33 / 90_000 - 81.4);
    const r = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', clip, '-map', '0', '-c', 'copy', '-output_ts_offset', offset, '-f', 'mpegts', wrapped]);
    expect(r.status).toBe(0);
    const file = copyOf(wrapped, 'wrapped');
    const result = await cut(file);
    expect(result.method).toBe('packets');
    expect(Math.abs(durationOf(file) - 110)).toBeLessThan(1);
    expect(maxVolume(file)).toBeLessThan(-30);
    const decode = spawnSync('ffmpeg', ['-nostdin', '-v', 'warning', '-i', file, '-f', 'null', '-']);
    expect(decode.stderr.toString()).toBe('');
  }, 60_000);

  it('falls back to ffmpeg for a recording it does not handle (192-byte M2TS packets), with the same result', async () => {
    const m2ts = path.join(dir, 'source.m2ts');
    const r = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', clip, '-map', '0', '-c', 'copy', '-f', 'mpegts', '-mpegts_m2ts_mode', '1', m2ts]);
    expect(r.status).toBe(0);
    const file = copyOf(m2ts, 'm2ts');
    const segments: string[] = [];
    const result = await withWorkDir(file, (workDir) =>
      cutRecording({ tools: defaultAdTools, file, source: file, breaks: BREAKS, workDir, onSegment: (i, n) => segments.push(`${i}/${n}`) }),
    );
    expect(result.method).toBe('ffmpeg');
    expect(segments).toEqual(['1/3', '2/3', '3/3']);
    expect(Math.abs(durationOf(file) - 110)).toBeLessThan(2);
    expect(maxVolume(file)).toBeLessThan(-30);
    expect(fs.existsSync(`${file}.orig`)).toBe(true);
  }, 60_000);

  it('leaves a recording whose keyframes are too far apart to cut near the breaks to ffmpeg (one keyframe in 20 s)', async () => {
    const sparse = path.join(dir, 'one-keyframe.ts');
    const r = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=20', '-f', 'lavfi', '-i', 'sine=duration=20',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '1000', '-x264-params', 'scenecut=0', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '1', '-f', 'mpegts', sparse]);
    expect(r.status).toBe(0);
    const file = copyOf(sparse, 'one-keyframe');
    // Copying packets could only keep the break (no keyframe after 5 s to stop at): 20 s instead of 17.
    const result = await cut(file, [{ start: 5, end: 8 }]);
    expect(result.method).toBe('ffmpeg');
    expect(Math.abs(durationOf(file) - 17)).toBeLessThan(1);
  }, 60_000);

  it('fails with a clear error on a full disk and leaves the recording as it was', async (ctx) => {
    const why = tmpfsUnavailable(dir);
    if (why) {
      console.log(`skipped: the full-disk cut needs a tmpfs: ${why}`);
      ctx.skip();
      return;
    }
    const mount = path.join(dir, 'small-disk');
    fs.mkdirSync(mount);
    expect(tryMountTmpfs(mount, '12m')).toBeNull();
    try {
      const folder = path.join(mount, 'Show');
      fs.mkdirSync(folder);
      const file = path.join(folder, 'Show - S01E01 - Pilot.ts');
      fs.copyFileSync(clip, file);
      const hash = sha256File(file);
      // Room for the work folder, not for the cut file.
      fs.mkdirSync(path.join(folder, WORK_DIR_NAME, 'x'), { recursive: true });
      fs.rmSync(path.join(folder, WORK_DIR_NAME), { recursive: true });
      const filler = fillDisk(folder);
      const err = await cut(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CutFailed);
      expect((err as Error).message).toBe('writing the cut file failed: no space left on the disk');
      expect(sha256File(file)).toBe(hash);
      expect(fs.readdirSync(folder).sort()).toEqual(['Show - S01E01 - Pilot.ts', path.basename(filler)].sort());
    } finally {
      unmount(mount);
    }
  }, 60_000);
});
