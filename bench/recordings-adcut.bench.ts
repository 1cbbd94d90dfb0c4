/**
 * Cut time of a 1-hour, 1080i-sized (1920x1080, 25 fps) stream-copied recording with four 3-minute
 * breaks, through the ad-removal cut (probe, copy the 5 keep segments, verify, swap) against a
 * plain `ffmpeg -c copy` remux of the same file in the same run. Target: cut under 1.5 x the remux.
 * The clip is made cheaply (one minute encoded at a low bitrate, repeated by stream copy) in the temp
 * folder and deleted afterwards (`ADCUT_BENCH_KEEP=1` keeps it for the next run). Median of several
 * rounds, alternating cut and remux; the page cache is warm for both.
 *
 * What to expect: the cut reads the recording once and copies the kept TS packets (about 80 %) to
 * the output with shifted clocks (`ts-cut.ts`): no ffmpeg, no intermediate files, about 0.6 s of
 * CPU for this clip, so it costs about what writing 80 % of the file costs, plus one ffprobe spawn
 * (the verification; the start and duration come from the probe the service makes before comskip,
 * also given with that probe counted in). The remux reads, demuxes, remuxes and writes all of
 * it. Before (issue 27): ffmpeg extracted the segments two at a time (each then probed) and a joiner
 * copied them into the output, 1.76 x the remux; that path remains the fallback for streams the
 * packet cut does not handle. The one-pass concat demuxer with inpoint/outpoint on the original
 * writes non-monotonic timestamps at every join (keyframe pre-roll), which `cut.test.ts` rules out.
 * Both sides write to the same disk; `sync` runs before each timed step, so neither pays for the
 * other's write-back.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cutRecording } from '../main/recordings/adcut/cut.js';
import { defaultAdTools, probeTimeline } from '../main/recordings/adcut/tools.js';
import { withWorkDir } from '../main/recordings/adcut/work-dir.js';
import { figure, round } from './report.js';

const ROUNDS = 11;
const HOUR_CLIP = path.join(os.tmpdir(), 'adcut-bench-1h-1080-v1.ts');
const BREAKS = [
  { start: 600, end: 780 },
  { start: 1500, end: 1680 },
  { start: 2400, end: 2580 },
  { start: 3200, end: 3380 },
];

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr.toString().slice(-400)}`);
}

function makeHourClip(): void {
  if (fs.existsSync(HOUR_CLIP)) return;
  const minute = `${HOUR_CLIP}.minute.ts`;
  console.log('making the 1-hour clip once (one low-bitrate minute, repeated by stream copy)…');
  run('nice', ['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25:duration=60', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=60',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-b:v', '1500k', '-g', '50', '-flags', '+ilme+ildct', '-c:a', 'aac', '-b:a', '128k', '-f', 'mpegts', minute]);
  const list = `${HOUR_CLIP}.txt`;
  fs.writeFileSync(list, Array.from({ length: 60 }, () => `file '${minute}'\n`).join(''));
  run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-map', '0', '-c', 'copy', '-f', 'mpegts', `${HOUR_CLIP}.tmp`]);
  fs.renameSync(`${HOUR_CLIP}.tmp`, HOUR_CLIP);
  fs.rmSync(minute);
  fs.rmSync(list);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  makeHourClip();
  const dir = fs.mkdtempSync(path.join(path.dirname(HOUR_CLIP), 'adcut-bench-'));
  try {
    const remux: number[] = [];
    const cut: number[] = [];
    const probed: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const out = path.join(dir, 'remux.ts');
      spawnSync('sync');
      let t0 = performance.now();
      run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', HOUR_CLIP, '-map', '0', '-c', 'copy', '-f', 'mpegts', out]);
      remux.push(performance.now() - t0);
      fs.rmSync(out);

      // The cut works on a recording in place: give it a hard link (no copy) to swap around.
      const file = path.join(dir, 'Show - S01E01 - Bench.ts');
      fs.linkSync(HOUR_CLIP, file);
      spawnSync('sync');
      // The service probes the start and duration before comskip runs (for the scan's progress) and
      // hands them to the cut; timed apart, so both figures can be given.
      t0 = performance.now();
      const timeline = await probeTimeline(defaultAdTools, file);
      if (!timeline) throw new Error('ffprobe could not read the clip');
      const probe = performance.now() - t0;
      t0 = performance.now();
      const result = await withWorkDir(file, (workDir) => cutRecording({ tools: defaultAdTools, file, source: file, breaks: BREAKS, workDir, timeline }));
      cut.push(performance.now() - t0);
      probed.push(cut[cut.length - 1]! + probe);
      if (result.method !== 'packets') throw new Error(`the cut fell back to ${result.method}: the bench measures the packet cut`);
      if (i === 0) console.log(`cut output ${round(result.outputSeconds)} s (expected ${result.expectedSeconds} s ± ${result.toleranceSeconds} s)`);
      fs.rmSync(file);
      fs.rmSync(`${file}.orig`);
    }
    const size = fs.statSync(HOUR_CLIP).size;
    console.log(`clip: 1 h, 1920x1080, ${round(size / 1e6)} MB; ${ROUNDS} rounds`);
    figure('remux (ffmpeg -c copy) median', median(remux) / 1000, 's');
    figure('cut (4 breaks, 5 segments, verify, swap) median', median(cut) / 1000, 's');
    console.log(`fastest rounds: remux ${round(Math.min(...remux) / 1000)} s, cut ${round(Math.min(...cut) / 1000)} s`);
    figure('cut / remux (timeline from the scan, as the service cuts)', median(cut) / median(remux), 'x', { max: 1.5 });
    figure('cut with its own ffprobe of the recording / remux', median(probed) / median(remux), 'x', { max: 1.5 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    if (process.env.ADCUT_BENCH_KEEP !== '1') fs.rmSync(HOUR_CLIP, { force: true });
  }
}

await main();
