import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256File } from '../testing/harness.js';
import { MarkFailed, markRecording, removeOurFiles, type MarkedFiles } from './mark.js';
import { copyRecording, durationOf, makeClip, streamTypes, TWO_BREAK_CLIP, TWO_BREAK_CLIP_BREAKS } from './testing/clips.js';
import { defaultAdTools, type AdTools } from './tools.js';
import { withWorkDir } from './work-dir.js';

/** What `ffprobe -show_chapters` lists, read here on its own (not through the code under test). */
function chaptersIn(file: string): Array<{ start: number; end: number; title: string }> {
  const r = spawnSync('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', file]);
  const parsed = JSON.parse(r.stdout.toString()) as { chapters: Array<{ start_time: string; end_time: string; tags?: { title?: string } }> };
  return parsed.chapters.map((c) => ({ start: Number(c.start_time), end: Number(c.end_time), title: c.tags?.title ?? '' }));
}

/** An ffmpeg that rewrites its arguments first (a broken copy for the verification to catch). */
function wrappedFfmpeg(dir: string, name: string, rewrite: string): AdTools {
  const script = path.join(dir, name);
  fs.writeFileSync(script, `#!/bin/bash\nargs=("$@")\nfor i in "\${!args[@]}"; do ${rewrite}; done\nexec ffmpeg "\${args[@]}"\n`, { mode: 0o755 });
  return { ...defaultAdTools, ffmpeg: script };
}

describe('Mark: an EDL for Kodi and a chaptered copy beside the recording, the recording untouched', () => {
  let dir: string;
  let clip: string;
  let duration: number;
  let n = 0;
  const fresh = (src = clip) => copyRecording(dir, src, `rec-${n++}`);
  const mark = (file: string, over: Partial<Parameters<typeof markRecording>[0]> = {}) =>
    withWorkDir(file, (workDir) =>
      markRecording({ tools: defaultAdTools, file, mediaRoot: dir, breaks: TWO_BREAK_CLIP_BREAKS, duration, chapters: true, previous: null, workDir, ...over }),
    );
  const edlOf = (file: string) => file.replace(/\.ts$/, '.edl');
  const mkvOf = (file: string) => file.replace(/\.ts$/, '.mkv');

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mark-'));
    // The cut tests' clips (B-frames, as broadcast H.264): made once, shared through the clip cache.
    clip = makeClip(TWO_BREAK_CLIP, { bframes: true });
    duration = durationOf(clip);
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes Kodi EDL lines (start end 3) and an .mkv whose chapters sit at the breaks, with every stream and the same length', async () => {
    const file = fresh();
    const before = sha256File(file);
    const marks = await mark(file);
    expect(sha256File(file)).toBe(before);
    // Kodi wiki, "Edit decision list": `[start] [end] [action]` in seconds, action 3 = commercial break.
    expect(fs.readFileSync(edlOf(file), 'utf8')).toBe('40.00\t63.00\t3\n103.00\t126.00\t3\n');
    const mkv = mkvOf(file);
    expect(chaptersIn(mkv)).toEqual([
      { start: 0, end: 40, title: 'Programme' },
      { start: 40, end: 63, title: 'Commercial' },
      { start: 63, end: 103, title: 'Programme' },
      { start: 103, end: 126, title: 'Commercial' },
      { start: 126, end: expect.closeTo(duration, 2), title: 'Programme' },
    ]);
    expect(streamTypes(mkv)).toEqual(['video', 'audio']);
    // The spec's verification tolerance, max(5, 2 x 4 boundaries) = 8 s; a stream copy is far closer.
    expect(Math.abs(durationOf(mkv) - duration)).toBeLessThan(1);
    expect(marks.files.map((f) => f.path).sort()).toEqual([edlOf(file), mkv].sort());
    // Nothing left behind in the work folder.
    expect(fs.existsSync(path.join(path.dirname(file), '.adcut-work'))).toBe(false);
  }, 60_000);

  it('writes only the EDL when the show asks for no chapters', async () => {
    const file = fresh();
    const marks = await mark(file, { chapters: false });
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['Show - S01E01 - Pilot.edl', 'Show - S01E01 - Pilot.ts']);
    expect(marks.files.map((f) => f.path)).toEqual([edlOf(file)]);
  });

  it('keeps video and audio of a recording with a DVB-style data stream (Matroska carries no data streams)', async () => {
    const file = fresh(makeClip(TWO_BREAK_CLIP, { dataStream: true, bframes: true }));
    expect(streamTypes(file)).toEqual(['video', 'audio', 'unknown']);
    await mark(file);
    expect(streamTypes(mkvOf(file))).toEqual(['video', 'audio']);
    expect(chaptersIn(mkvOf(file))).toHaveLength(5);
  }, 60_000);

  it('MPEG-TS carries no chapters, which is why the copy is Matroska', () => {
    const meta = path.join(dir, 'meta.txt');
    fs.writeFileSync(meta, ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=40000\ntitle=Programme\n');
    const out = path.join(dir, 'chapters.ts');
    const r = spawnSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', clip, '-f', 'ffmetadata', '-i', meta, '-map', '0', '-map_chapters', '1', '-c', 'copy', '-t', '5', '-f', 'mpegts', out]);
    expect(r.status).toBe(0);
    expect(chaptersIn(out)).toEqual([]);
  });

  it.each([
    ['an .edl', '.edl'],
    ['an .mkv', '.mkv'],
  ])('stops when %s of that name exists that it did not write, and writes nothing', async (_what, ext) => {
    const file = fresh();
    const theirs = file.replace(/\.ts$/, ext);
    fs.writeFileSync(theirs, 'the owner\u2019s own file\n');
    const before = sha256File(file);
    await expect(mark(file)).rejects.toThrow(new MarkFailed(`Show - S01E01 - Pilot${ext} already exists and was not written by the recording sync: left alone`));
    expect(fs.readFileSync(theirs, 'utf8')).toBe('the owner\u2019s own file\n');
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual([path.basename(file), path.basename(theirs)].sort());
    expect(sha256File(file)).toBe(before);
  }, 60_000);

  it('a re-mark replaces its own files, drops its copy when chapters are switched off, and stops at a file changed since', async () => {
    const file = fresh();
    const first = await mark(file);
    const second = await mark(file, { previous: first, breaks: [{ start: 40, end: 63 }] });
    expect(fs.readFileSync(edlOf(file), 'utf8')).toBe('40.00\t63.00\t3\n');
    expect(chaptersIn(mkvOf(file)).map((c) => c.title)).toEqual(['Programme', 'Commercial', 'Programme']);
    const third = await mark(file, { previous: second, chapters: false });
    expect(fs.existsSync(mkvOf(file))).toBe(false);
    // The owner edits the EDL by hand: it is theirs now.
    fs.appendFileSync(edlOf(file), '200.00\t210.00\t3\n');
    await expect(mark(file, { previous: third })).rejects.toThrow(/Pilot\.edl already exists and was not written by the recording sync/);
    expect(fs.readFileSync(edlOf(file), 'utf8')).toBe('40.00\t63.00\t3\n103.00\t126.00\t3\n200.00\t210.00\t3\n');
  }, 90_000);

  it.each([
    ['shorter than the recording', 'copy-short', '[ "${args[$i]}" = "-v" ] && args[$i]=-t && args[$((i+1))]=30', /the chaptered copy lasts 30\.\d s, the recording 156\.0 s \(± 8 s\)/],
    ['without its chapters', 'copy-nochapters', '[ "${args[$i]}" = "-map_chapters" ] && args[$((i+1))]=-1', /does not list the chapters at the breaks/],
    ['without its audio', 'copy-noaudio', '[ "${args[$i]}" = "0:a?" ] && args[$i]="0:s?"', /has 0 audio streams, the recording 1/],
  ])('fails verification of a copy %s, and writes neither file', async (_what, name, rewrite, reason) => {
    const file = fresh();
    const before = sha256File(file);
    const tools = wrappedFfmpeg(dir, name, rewrite);
    await expect(mark(file, { tools })).rejects.toThrow(reason);
    expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    expect(sha256File(file)).toBe(before);
  }, 60_000);

  it('removes only its own files when nothing is left to mark, not one changed since', async () => {
    const file = fresh();
    const marks = await mark(file);
    fs.appendFileSync(mkvOf(file), 'x'); // the owner changed the copy: theirs now
    removeOurFiles(marks, dir);
    expect(fs.existsSync(edlOf(file))).toBe(false);
    expect(fs.existsSync(mkvOf(file))).toBe(true);
    expect(fs.existsSync(file)).toBe(true);
  }, 60_000);

  it('the marks it reports are the files as written (size and time), which is how a re-mark knows its own', async () => {
    const file = fresh();
    const marks: MarkedFiles = await mark(file, { chapters: false });
    const st = fs.statSync(edlOf(file));
    expect(marks.files).toEqual([{ path: edlOf(file), size: st.size, mtime_ms: st.mtimeMs }]);
  });
});
