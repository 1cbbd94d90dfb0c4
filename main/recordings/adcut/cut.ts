import fs from 'node:fs';
import path from 'node:path';
import { boundaryCount, keepSegments, totalSeconds, verifyToleranceSeconds, type Span } from './breaks.js';
import { swapIntoPlace } from './swap.js';
import { lastLine, probeDuration, probeTimeline, runTool, type AdTools } from './tools.js';
import { TsCutUnsupported, cutTs } from './ts-cut.js';
import { openTsJoiner, type JoinPart } from './ts-join.js';

/** Any failure of the cut: the row becomes `cut_failed` and the original stays at its path. */
export class CutFailed extends Error {}

export interface CutInput {
  tools: AdTools;
  /** The recording's path (where the cut file ends up). */
  file: string;
  /** Every file the swap renames must really lie inside it at that moment. */
  mediaRoot?: string;
  /** What is read: the file itself, or its `.orig` when a re-cut starts from the kept original. */
  source: string;
  breaks: readonly Span[];
  /** A private folder under `.adcut-work` next to the recording (same filesystem); removed by the caller. */
  workDir: string;
  signal?: AbortSignal;
  /** Where the recording's timeline starts and how long it lasts, when the caller probed it already (saves an ffprobe). */
  timeline?: { start: number; duration: number };
  onSegment?(index: number, count: number): void;
  onVerify?(): void;
  /** Test seam: runs between the two renames of the swap. */
  betweenRenames?(): void;
}

export interface CutResult {
  keep: Span[];
  expectedSeconds: number;
  outputSeconds: number;
  toleranceSeconds: number;
  method: CutMethod;
}

const s3 = (v: number) => v.toFixed(3);

/** How the cut was made: packets copied in one read (`packets`), or ffmpeg extracts joined (`ffmpeg`, the fallback). */
export type CutMethod = 'packets' | 'ffmpeg';

const describeWriteError = (err: unknown) =>
  (err as NodeJS.ErrnoException).code === 'ENOSPC' ? 'no space left on the disk' : (err as Error).message;

/**
 * The spec's cut procedure, steps 1 to 5: container start and duration (one ffprobe) → keep segments
 * (the merged, clamped breaks inverted; none is a failure) → the keep segments stream-copied into one
 * output with video, audio and optional subtitles (data streams dropped), the clock running on at each
 * join → output verified (non-empty, duration within max(5, 2 x boundaries) s of the keep total) →
 * swapped into place. The copy is one sequential read of the recording that copies its TS packets
 * (`cutTs`); a recording that cutter does not handle is cut with ffmpeg instead (`cutWithFfmpeg`).
 * Every intermediate lives in `workDir`. Throws `CutFailed`; the original is then untouched.
 */
export async function cutRecording(input: CutInput): Promise<CutResult> {
  const { tools, workDir } = input;
  const fail = (msg: string): never => {
    throw new CutFailed(msg);
  };
  const timeline = input.timeline ?? (await probeTimeline(tools, input.source, input.signal));
  if (!timeline) fail('cannot read the recording duration');
  const duration = timeline!.duration;
  const keep = keepSegments(input.breaks, duration);
  if (keep.length === 0) fail('the breaks cover the whole recording: nothing to keep');

  const output = path.join(workDir, 'output.ts');
  let method: CutMethod = 'packets';
  try {
    await cutTs({ source: input.source, output, keep, startTime: timeline!.start, duration, signal: input.signal, onSegment: input.onSegment });
  } catch (err) {
    if (input.signal?.aborted) fail('interrupted: the service stopped');
    if (!(err instanceof TsCutUnsupported)) fail(`writing the cut file failed: ${describeWriteError(err)}`);
    method = 'ffmpeg';
    fs.rmSync(output, { force: true });
    await cutWithFfmpeg(input, keep, duration, output);
  }

  input.onVerify?.();
  const expectedSeconds = totalSeconds(keep);
  const toleranceSeconds = verifyToleranceSeconds(boundaryCount(input.breaks, duration));
  if (!fs.existsSync(output) || fs.statSync(output).size === 0) fail('the cut output is empty');
  const outputSeconds = await probeDuration(tools, output, input.signal);
  if (outputSeconds === null) fail('cannot read the cut output duration');
  if (Math.abs(outputSeconds! - expectedSeconds) > toleranceSeconds) {
    fail(`verification failed: the output lasts ${outputSeconds!.toFixed(1)} s, expected ${expectedSeconds.toFixed(1)} s ± ${toleranceSeconds} s`);
  }
  try {
    swapIntoPlace(input.file, output, input.betweenRenames, input.mediaRoot);
  } catch (err) {
    fail(`swapping the cut file into place failed: ${(err as Error).message}`);
  }
  return { keep, expectedSeconds, outputSeconds: outputSeconds!, toleranceSeconds, method };
}

/**
 * The fallback: each keep segment extracted by ffmpeg (two at a time, each probed for its timeline)
 * and joined onto `output`, in order, by copying packets with shifted clocks (`openTsJoiner`) while
 * the next ones extract.
 */
async function cutWithFfmpeg(input: CutInput, keep: readonly Span[], duration: number, output: string): Promise<void> {
  const { tools, workDir } = input;
  const fail = (msg: string): never => {
    throw new CutFailed(msg);
  };
  // A stuck ffmpeg must not hold the recording forever: generous, proportional to the length.
  const timeoutMs = Math.max(10 * 60_000, duration * 2000);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  input.signal?.addEventListener('abort', onAbort, { once: true });
  if (input.signal?.aborted) stop.abort();
  // Two segments are extracted (and probed) at a time, as each ffmpeg mostly waits on reads and
  // writes; each is joined onto the output, in order, as soon as it is ready, while the next extract.
  const extract = async (i: number): Promise<JoinPart> => {
    const seg = keep[i]!;
    const out = path.join(workDir, `segment-${String(i).padStart(4, '0')}.ts`);
    const r = await runTool(
      tools,
      tools.ffmpeg,
      ['-nostdin', '-v', 'error', '-y', '-ss', s3(seg.start), '-i', input.source, '-t', s3(seg.end - seg.start),
        '-map', '0:v', '-map', '0:a', '-map', '0:s?', '-c', 'copy', '-f', 'mpegts', out],
      { timeoutMs, signal: stop.signal },
    );
    if (input.signal?.aborted) fail('interrupted: the service stopped');
    if (r.code !== 0) fail(`extracting segment ${i + 1}/${keep.length} failed: ${r.timedOut ? 'timed out' : lastLine(r.stderr) || `exit ${r.code}`}`);
    if (!fs.existsSync(out) || fs.statSync(out).size === 0) fail(`segment ${i + 1}/${keep.length} came out empty`);
    const timeline = await probeTimeline(tools, out, stop.signal);
    if (input.signal?.aborted) fail('interrupted: the service stopped');
    if (!timeline) fail(`cannot read the timeline of segment ${i + 1}/${keep.length}`);
    return { path: out, ...timeline! };
  };
  const extracting: Array<Promise<JoinPart>> = [];
  const startNext = () => {
    const i = extracting.length;
    if (i >= keep.length || stop.signal.aborted) return;
    input.onSegment?.(i + 1, keep.length);
    const job = extract(i);
    job.catch(() => undefined); // handled where it is awaited, in order (or settled on the way out)
    extracting.push(job);
  };
  const joiner = await openTsJoiner(output);
  try {
    startNext();
    startNext();
    for (let i = 0; i < keep.length; i++) {
      const part = await extracting[i]!;
      startNext();
      try {
        await joiner.append(part, input.signal);
      } catch (err) {
        fail(`concatenating the segments failed: ${(err as Error).message}`);
      }
      fs.rmSync(part.path, { force: true }); // joined: free the space early
    }
  } finally {
    // On any failure the other extractions stop, and none still writes when the work dir goes.
    stop.abort();
    input.signal?.removeEventListener('abort', onAbort);
    await Promise.allSettled(extracting);
    await joiner.close();
  }
}
