import fs from 'node:fs';
import path from 'node:path';
import { assertInside } from '../../core/real-path.js';
import { boundaryCount, mergeBreaks, verifyToleranceSeconds, type Span } from './breaks.js';
import { lastLine, probeDuration, runTool, type AdTools } from './tools.js';

/** Any failure of marking: the row becomes `mark_failed`; the recording is never touched. */
export class MarkFailed extends Error {}

/** Kodi's EDL action for a commercial break (skipped once, the rest of the file kept). */
export const EDL_COMMERCIAL_BREAK = 3;

/** A file Mark wrote beside a recording, as it was when written: a file there that differs is not ours. */
export interface MarkedFile {
  path: string;
  size: number;
  mtime_ms: number;
}
/** What `ad_marks_json` holds. */
export interface MarkedFiles {
  files: MarkedFile[];
}

export interface Chapter {
  start: number;
  end: number;
  title: 'Programme' | 'Commercial';
}

const stem = (file: string) => path.join(path.dirname(file), path.basename(file, path.extname(file)));
/** Where Kodi looks for a video's edit list: the same name with `.edl` (Kodi wiki, "Edit decision list"). */
export const edlPathOf = (file: string) => `${stem(file)}.edl`;
/** The chaptered copy: the same name in Matroska (MPEG-TS carries no chapters). */
export const chapteredPathOf = (file: string) => `${stem(file)}.mkv`;

/** Kodi's EDL: one `start end action` line per break, seconds with two decimals, action 3 (commercial break). */
export function edlText(breaks: readonly Span[]): string {
  return breaks.map((b) => `${b.start.toFixed(2)}\t${b.end.toFixed(2)}\t${EDL_COMMERCIAL_BREAK}\n`).join('');
}

/** Reads an EDL strictly as Kodi's three-field lines (blank lines skipped); anything else throws. */
export function parseKodiEdl(text: string): Array<Span & { action: number }> {
  const out: Array<Span & { action: number }> = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+)$/.exec(line);
    if (!m) throw new Error(`not a Kodi EDL line: ${line.slice(0, 80)}`);
    out.push({ start: Number(m[1]), end: Number(m[2]), action: Number(m[3]) });
  }
  return out;
}

/** The chapters of a recording of `duration` s with these (merged) breaks: Programme and Commercial in turn. */
export function chaptersOf(breaks: readonly Span[], duration: number): Chapter[] {
  const out: Chapter[] = [];
  let pos = 0;
  for (const b of mergeBreaks(breaks, duration)) {
    if (b.start > pos) out.push({ start: pos, end: b.start, title: 'Programme' });
    out.push({ start: b.start, end: b.end, title: 'Commercial' });
    pos = b.end;
  }
  if (duration > pos) out.push({ start: pos, end: duration, title: 'Programme' });
  return out;
}

/** ffmpeg's metadata file with these chapters (millisecond time base). */
export function ffmetadataText(chapters: readonly Chapter[]): string {
  const ms = (s: number) => Math.round(s * 1000);
  return ';FFMETADATA1\n' + chapters.map((c) => `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${ms(c.start)}\nEND=${ms(c.end)}\ntitle=${c.title}\n`).join('');
}

/**
 * Whether `file` may be written: it does not exist, or it is one Mark wrote (listed in `previous`
 * with the same size and modification time). Anything else is someone else's file (DESIGN rule 12).
 */
export function mayWrite(file: string, previous: MarkedFiles | null): boolean {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) return true;
  return isOurs(file, st, previous);
}

const isOurs = (file: string, st: fs.Stats, previous: MarkedFiles | null) =>
  !!previous?.files.some((f) => f.path === file && f.size === st.size && Math.abs(f.mtime_ms - st.mtimeMs) < 1);

/** Removes the files of `previous` not in `keep` that are still as Mark wrote them (inside `mediaRoot`). */
export function removeOurFiles(previous: MarkedFiles | null, mediaRoot: string, keep: ReadonlySet<string> = new Set()): void {
  for (const f of previous?.files ?? []) {
    if (keep.has(f.path)) continue;
    const st = fs.statSync(f.path, { throwIfNoEntry: false });
    if (!st || !isOurs(f.path, st, previous)) continue;
    assertInside(mediaRoot, f.path, 'the media root');
    fs.rmSync(f.path, { force: true });
  }
}

export interface MarkInput {
  tools: AdTools;
  /** The recording's path: the marks are named after it and written beside it. */
  file: string;
  /** The file read (never written): the recording, or its kept original when the copy stands in its place; default `file`. */
  source?: string;
  /** Every file written must really lie inside it at that moment. */
  mediaRoot: string;
  /** The detected breaks, in seconds from the start of the recording. */
  breaks: readonly Span[];
  /** The recording's duration (the chaptered copy needs it), null when it could not be read. */
  duration: number | null;
  /** Whether to write the chaptered copy beside the recording. */
  chapters: boolean;
  /** What an earlier mark of this recording wrote (it may be replaced), null when none. */
  previous: MarkedFiles | null;
  /** A private folder under `.adcut-work` next to the recording (same filesystem); removed by the caller. */
  workDir: string;
  signal?: AbortSignal;
  onVerify?(): void;
}

/**
 * Mark mode after detection: an EDL in Kodi's format beside the recording and, when asked, a
 * chaptered `.mkv` copy made by stream copy. Each is written in the work folder, verified (the EDL
 * read back gives the breaks; the copy lasts as long as the recording within the spec's tolerance,
 * keeps every video, audio and subtitle stream and lists the chapters at the breaks), then renamed
 * into place. A file of either name that Mark did not write stops it before anything is written.
 * Returns what it wrote; throws `MarkFailed`.
 */
export async function markRecording(input: MarkInput): Promise<MarkedFiles> {
  const fail = (msg: string): never => {
    throw new MarkFailed(msg);
  };
  const duration = input.duration;
  const breaks = mergeBreaks(input.breaks, duration ?? Number.MAX_SAFE_INTEGER);
  const edlPath = edlPathOf(input.file);
  const mkvPath = chapteredPathOf(input.file);
  if (input.chapters && path.extname(input.file).toLowerCase() === '.mkv') fail('the recording is a .mkv already: no chaptered copy beside it');
  const targets = input.chapters ? [edlPath, mkvPath] : [edlPath];
  for (const t of targets) {
    if (!mayWrite(t, input.previous)) fail(`${path.basename(t)} already exists and was not written by the recording sync: left alone`);
  }

  const tmpEdl = path.join(input.workDir, 'marks.edl');
  fs.writeFileSync(tmpEdl, edlText(breaks));
  const readBack = parseKodiEdl(fs.readFileSync(tmpEdl, 'utf8'));
  const same = readBack.length === breaks.length && readBack.every((e, i) => e.action === EDL_COMMERCIAL_BREAK && near(e.start, breaks[i]!.start, 0.006) && near(e.end, breaks[i]!.end, 0.006));
  if (!same) fail('verification failed: the EDL file does not read back as the detected breaks');

  const placements: Array<[string, string]> = [[tmpEdl, edlPath]];
  if (input.chapters) {
    if (duration === null) fail('cannot read the recording duration for its chapters');
    const tmpMkv = path.join(input.workDir, 'chaptered.mkv');
    await writeChapteredCopy(input, chaptersOf(breaks, duration!), tmpMkv, duration!);
    placements.unshift([tmpMkv, mkvPath]);
  }

  const placed: string[] = [];
  try {
    for (const [tmp, final] of placements) {
      placeFile(tmp, final, input.previous, input.mediaRoot);
      placed.push(final);
    }
  } catch (err) {
    for (const p of placed) fs.rmSync(p, { force: true });
    fail(err instanceof MarkFailed ? err.message : `putting the marks in place failed: ${(err as Error).message}`);
  }
  removeOurFiles(input.previous, input.mediaRoot, new Set(placed));
  return {
    files: placed.map((p) => {
      const st = fs.statSync(p);
      return { path: p, size: st.size, mtime_ms: st.mtimeMs };
    }),
  };
}

const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;

/**
 * Moves a verified file from the work folder to its place beside the recording. A free name is
 * taken with a hard link, which fails rather than overwrite a file that appeared meanwhile; our own
 * earlier file is replaced in one rename. Where the filesystem has no hard links, a rename after a
 * last look.
 */
function placeFile(tmp: string, final: string, previous: MarkedFiles | null, mediaRoot: string): void {
  assertInside(mediaRoot, final, 'the media root');
  const notOurs = () => new MarkFailed(`${path.basename(final)} already exists and was not written by the recording sync: left alone`);
  if (fs.existsSync(final)) {
    if (!mayWrite(final, previous)) throw notOurs();
    fs.renameSync(tmp, final);
    return;
  }
  try {
    fs.linkSync(tmp, final);
    fs.rmSync(tmp, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw notOurs();
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    if (fs.existsSync(final)) throw notOurs();
    fs.renameSync(tmp, final);
  }
}

/** Streams by kind, each counted once (ffprobe lists a programme's streams twice). */
async function streamKinds(tools: AdTools, file: string, signal?: AbortSignal): Promise<Record<string, number> | null> {
  const r = await runTool(tools, tools.ffprobe, ['-v', 'error', '-show_entries', 'stream=index,codec_type', '-of', 'csv=p=0', file], { timeoutMs: 60_000, signal, outputLimit: 64 * 1024 });
  if (r.code !== 0) return null;
  const byIndex = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    const [index, type] = line.trim().split(',');
    if (index && type) byIndex.set(index, type);
  }
  const counts: Record<string, number> = {};
  for (const t of byIndex.values()) counts[t] = (counts[t] ?? 0) + 1;
  return counts;
}

/** The chapters `ffprobe -show_chapters` lists in a file. */
export async function probeChapters(tools: AdTools, file: string, signal?: AbortSignal): Promise<Array<{ start: number; end: number; title: string }> | null> {
  const r = await runTool(tools, tools.ffprobe, ['-v', 'error', '-show_chapters', '-of', 'json', file], { timeoutMs: 60_000, signal, outputLimit: 1024 * 1024 });
  if (r.code !== 0) return null;
  try {
    const parsed = JSON.parse(r.stdout) as { chapters?: Array<{ start_time?: string; end_time?: string; tags?: { title?: string } }> };
    return (parsed.chapters ?? []).map((c) => ({ start: Number(c.start_time), end: Number(c.end_time), title: c.tags?.title ?? '' }));
  } catch {
    return null;
  }
}

const KEPT_KINDS = ['video', 'audio', 'subtitle'] as const;

/**
 * The chaptered copy: every video, audio and subtitle stream copied (no transcode) into Matroska
 * with the chapters from an ffmetadata file. Matroska carries no data streams (ffmpeg refuses them:
 * "Only audio, video, and subtitles are supported for Matroska"), so those stay in the `.ts` only.
 */
async function writeChapteredCopy(input: MarkInput, chapters: readonly Chapter[], output: string, duration: number): Promise<void> {
  const fail = (msg: string): never => {
    throw new MarkFailed(msg);
  };
  const { tools } = input;
  const meta = path.join(input.workDir, 'chapters.txt');
  fs.writeFileSync(meta, ffmetadataText(chapters));
  const timeoutMs = Math.max(10 * 60_000, duration * 2000);
  const r = await runTool(
    tools,
    tools.ffmpeg,
    ['-nostdin', '-v', 'error', '-y', '-i', input.source ?? input.file, '-f', 'ffmetadata', '-i', meta,
      '-map', '0:v?', '-map', '0:a?', '-map', '0:s?', '-map_metadata', '0', '-map_chapters', '1', '-c', 'copy', '-f', 'matroska', output],
    { timeoutMs, signal: input.signal },
  );
  if (input.signal?.aborted) fail('interrupted: the service stopped');
  if (r.code !== 0) fail(`writing the chaptered copy failed: ${r.timedOut ? 'timed out' : lastLine(r.stderr) || `exit ${r.code}`}`);
  input.onVerify?.();
  if (!fs.existsSync(output) || fs.statSync(output).size === 0) fail('the chaptered copy is empty');
  const tolerance = verifyToleranceSeconds(boundaryCount(chapters.filter((c) => c.title === 'Commercial'), duration));
  const copySeconds = await probeDuration(tools, output, input.signal);
  if (copySeconds === null) fail('cannot read the chaptered copy duration');
  if (!near(copySeconds!, duration, tolerance)) {
    fail(`verification failed: the chaptered copy lasts ${copySeconds!.toFixed(1)} s, the recording ${duration.toFixed(1)} s (± ${tolerance} s)`);
  }
  const [want, got] = [await streamKinds(tools, input.source ?? input.file, input.signal), await streamKinds(tools, output, input.signal)];
  if (!want || !got) fail('cannot read the streams of the chaptered copy');
  for (const kind of KEPT_KINDS) {
    if ((want![kind] ?? 0) !== (got![kind] ?? 0)) fail(`verification failed: the chaptered copy has ${got![kind] ?? 0} ${kind} streams, the recording ${want![kind] ?? 0}`);
  }
  const listed = await probeChapters(tools, output, input.signal);
  const ok =
    listed !== null &&
    listed.length === chapters.length &&
    listed.every((c, i) => c.title === chapters[i]!.title && near(c.start, chapters[i]!.start, 0.01) && near(c.end, chapters[i]!.end, 0.01));
  if (!ok) fail('verification failed: the chaptered copy does not list the chapters at the breaks');
}
