/**
 * Test fixtures: short MPEG-TS clips made with the real ffmpeg (low resolution, a few minutes at
 * most, so the suite stays fast on two cores). Programme = a test pattern with a station logo and a
 * quiet tone; a break = black, silent frames around louder, brighter ads without the logo. Clips are
 * cached in the temp folder by their recipe (written atomically), so test files share them.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32Mpeg } from '../ts-cut.js';

export type ClipPart = { kind: 'programme' | 'ad' | 'black'; seconds: number };

export interface ClipOptions {
  /** `WxH`; default 320x240. */
  size?: string;
  /** Adds a private data stream (PMT stream type 0x05) that the mpegts muxer cannot copy, like DVB-T. */
  dataStream?: boolean;
  /** Encodes with B-frames (decode order differs from display order, as in broadcast H.264). */
  bframes?: boolean;
}

/** The usual break: black, an ad, black, another ad, black (33 s, within the bundled config's limits). */
export const twoAdBreak = (adSeconds = 15): ClipPart[] => [
  { kind: 'black', seconds: 1 },
  { kind: 'ad', seconds: adSeconds },
  { kind: 'black', seconds: 1 },
  { kind: 'ad', seconds: adSeconds },
  { kind: 'black', seconds: 1 },
];

/**
 * The clip the cut tests share: 40 s of programme, a break, 40 s, a break, 30 s, each break
 * black-ad-black-ad-black of 23 s, at 40–63 s and 103–126 s; 110 s of programme remain.
 */
export const TWO_BREAK_CLIP: readonly ClipPart[] = [
  { kind: 'programme', seconds: 40 },
  ...twoAdBreak(10),
  { kind: 'programme', seconds: 40 },
  ...twoAdBreak(10),
  { kind: 'programme', seconds: 30 },
];
export const TWO_BREAK_CLIP_BREAKS = [
  { start: 40, end: 63 },
  { start: 103, end: 126 },
];

/** A copy of `src` as a recording in a folder of its own under `dir` (named like a real episode). */
export function copyRecording(dir: string, src: string, name: string): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  const file = path.join(folder, 'Show - S01E01 - Pilot.ts');
  fs.copyFileSync(src, file);
  return file;
}

/** Where each part starts and ends, in seconds. */
export function partTimes(parts: readonly ClipPart[]): Array<ClipPart & { start: number; end: number }> {
  let t = 0;
  return parts.map((p) => {
    const start = t;
    t += p.seconds;
    return { ...p, start, end: t };
  });
}

/** The breaks a clip was made with: each maximal run of black and ad parts. */
export function madeBreaks(parts: readonly ClipPart[]): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const p of partTimes(parts)) {
    if (p.kind === 'programme') continue;
    const last = out[out.length - 1];
    if (last && last.end === p.start) last.end = p.end;
    else out.push({ start: p.start, end: p.end });
  }
  return out;
}

function sources(p: ClipPart, size: string): string[] {
  const d = p.seconds;
  switch (p.kind) {
    case 'programme':
      return [
        `testsrc=size=${size}:rate=25:duration=${d},drawbox=x=iw-60:y=12:w=40:h=20:color=white@0.9:t=fill`,
        `sine=frequency=440:sample_rate=48000:duration=${d},volume=0.15`,
      ];
    case 'ad':
      return [`mandelbrot=size=${size}:rate=25,trim=duration=${d}`, `sine=frequency=880:sample_rate=48000:duration=${d},volume=0.9`];
    case 'black':
      return [`color=c=black:size=${size}:rate=25:duration=${d}`, `anullsrc=r=48000:cl=mono,atrim=duration=${d}`];
  }
}

/** Makes (or reuses) a clip and returns its path; copy it before changing it. */
export function makeClip(parts: readonly ClipPart[], opts: ClipOptions = {}): string {
  const size = opts.size ?? '320x240';
  const key = crypto.createHash('sha256').update(JSON.stringify({ parts, size, data: !!opts.dataStream, bf: !!opts.bframes, v: 2 })).digest('hex').slice(0, 16);
  const out = path.join(os.tmpdir(), `adcut-clip-${key}.ts`);
  if (fs.existsSync(out)) return out;
  const tmp = `${out}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const args = ['-nostdin', '-v', 'error', '-y'];
  let filter = '';
  parts.forEach((p, i) => {
    const [v, a] = sources(p, size);
    args.push('-f', 'lavfi', '-i', v!, '-f', 'lavfi', '-i', a!);
    filter += `[${2 * i}:v][${2 * i + 1}:a]`;
  });
  filter += `concat=n=${parts.length}:v=1:a=1[v][a]`;
  args.push('-filter_complex', filter);
  let dataIndex = -1;
  if (opts.dataStream) {
    const bin = `${tmp}.bin`;
    fs.writeFileSync(bin, Buffer.alloc(64 * 1024));
    dataIndex = parts.length * 2;
    args.push('-f', 'data', '-i', bin);
  }
  args.push('-map', '[v]', '-map', '[a]');
  if (dataIndex >= 0) args.push('-map', `${dataIndex}:0`, '-c:d', 'copy');
  args.push('-c:v', 'libx264', ...(opts.bframes ? ['-preset', 'veryfast', '-bf', '3'] : ['-preset', 'ultrafast']), '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '1', '-b:a', '64k', '-f', 'mpegts', tmp);
  const r = spawnSync('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (opts.dataStream) fs.rmSync(`${tmp}.bin`, { force: true });
  if (r.status !== 0) throw new Error(`ffmpeg could not make the clip: ${r.stderr.toString().slice(-500)}`);
  if (opts.dataStream) retypeDataStream(tmp, 0x06, 0x05);
  fs.renameSync(tmp, out);
  return out;
}

/**
 * Rewrites the PMT so streams of type `from` become type `to` (0x05, private sections: ffmpeg reads
 * it as an unknown data stream and the mpegts muxer cannot copy it, so `-map 0` aborts).
 */
export function retypeDataStream(file: string, from: number, to: number): void {
  const data = fs.readFileSync(file);
  let pmtPid = -1;
  for (let off = 0; off + 188 <= data.length; off += 188) {
    const pid = ((data[off + 1]! & 0x1f) << 8) | data[off + 2]!;
    const unitStart = (data[off + 1]! & 0x40) !== 0;
    if (!unitStart) continue;
    const s = off + 5 + data[off + 4]!;
    if (pid === 0 && pmtPid < 0) {
      // PAT: first programme's PMT PID
      pmtPid = ((data[s + 10]! & 0x1f) << 8) | data[s + 11]!;
    } else if (pid === pmtPid && data[s] === 0x02) {
      const sectionLength = ((data[s + 1]! & 0x0f) << 8) | data[s + 2]!;
      const infoLength = ((data[s + 10]! & 0x0f) << 8) | data[s + 11]!;
      const end = s + 3 + sectionLength - 4;
      for (let i = s + 12 + infoLength; i < end; ) {
        if (data[i] === from) data[i] = to;
        i += 5 + (((data[i + 3]! & 0x0f) << 8) | data[i + 4]!);
      }
      data.writeUInt32BE(crc32Mpeg(data.subarray(s, end)), end);
    }
  }
  fs.writeFileSync(file, data);
}

/**
 * A synthetic-clip detector configuration (no real logo, so black frames decide): see the reference.
 * `live_tv_retries=0`: comskip gives up on a file it cannot open at once, instead of retrying for
 * about 7 s as for a recording still being written (a finished clip reads the same either way).
 */
export const SYNTHETIC_DETECTOR_INI = ['detect_method=1', 'punish=1', 'punish_threshold=1.2', 'punish_modifier=4', 'live_tv_retries=0', ''].join('\n');

/** Streams of a file as ffprobe lists them (`codec_type`). */
export function streamTypes(file: string): string[] {
  const r = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=index,codec_type', '-of', 'csv=p=0', file]);
  // Streams inside a programme are listed twice (once under the programme): one entry per index.
  const byIndex = new Map<string, string>();
  for (const line of r.stdout.toString().split('\n')) {
    const [index, type] = line.trim().split(',');
    if (index && type) byIndex.set(index, type);
  }
  return [...byIndex.values()];
}

export function durationOf(file: string): number {
  const r = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number.parseFloat(r.stdout.toString());
}

/**
 * A recording with a timestamp jump backwards in the middle (two 60 s pieces, the first stamped
 * 1000 s later, bytes joined): what a broadcast glitch looks like. ffprobe then reports a duration
 * far from the content's, so a stream-copy cut of it cannot verify.
 */
export function makeDiscontinuousClip(): string {
  const out = path.join(os.tmpdir(), 'adcut-clip-discontinuous-v1.ts');
  if (fs.existsSync(out)) return out;
  const pieces = [1000, 0].map((offset, i) => {
    const piece = `${out}.${process.pid}.${i}.tmp`;
    const r = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=60', '-f', 'lavfi', '-i', 'sine=duration=60',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '1', '-output_ts_offset', String(offset), '-f', 'mpegts', piece]);
    if (r.status !== 0) throw new Error(`ffmpeg could not make the clip: ${r.stderr.toString().slice(-300)}`);
    return piece;
  });
  const tmp = `${out}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.concat(pieces.map((p) => fs.readFileSync(p))));
  for (const p of pieces) fs.rmSync(p, { force: true });
  fs.renameSync(tmp, out);
  return out;
}
