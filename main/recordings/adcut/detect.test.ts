import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/harness.js';
import { DetectFailed, detectBreaks } from './detect.js';
import { resolveDetectorConfig } from './detector-config.js';
import { makeClip, madeBreaks, SYNTHETIC_DETECTOR_INI, twoAdBreak, type ClipPart } from './testing/clips.js';
import { defaultAdTools } from './tools.js';

// Programme segments of 45 s around one break: comskip's default minimum show segment (120 s) is
// lowered to 30 s, so the clips are 123 s and 60 s instead of 293 s and 150 s (every test here runs
// comskip over a whole clip). Without that line comskip calls all of the short clip a commercial.
const WITH_BREAK: ClipPart[] = [{ kind: 'programme', seconds: 45 }, ...twoAdBreak(), { kind: 'programme', seconds: 45 }];
const NO_BREAKS: ClipPart[] = [{ kind: 'programme', seconds: 60 }];
const DETECTOR_INI = `${SYNTHETIC_DETECTOR_INI}min_show_segment_length=30\n`;

describe('commercial detection with the real comskip', () => {
  let dir: string;
  let clip: string;
  let plain: string;
  let ini: string;
  beforeAll(() => {
    dir = tempDir('adcut-detect-');
    clip = makeClip(WITH_BREAK);
    plain = makeClip(NO_BREAKS);
    ini = path.join(dir, 'synthetic.ini');
    fs.writeFileSync(ini, DETECTOR_INI);
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const work = (name: string) => {
    const d = path.join(dir, name);
    fs.mkdirSync(d);
    return d;
  };

  it('finds the break within a few seconds of where it was made', async () => {
    const breaks = await detectBreaks({ tools: defaultAdTools, iniSource: ini, file: clip, workDir: work('found'), timeoutMs: 120_000 });
    const made = madeBreaks(WITH_BREAK);
    expect(made).toEqual([{ start: 45, end: 78 }]);
    expect(breaks).toHaveLength(1);
    expect(Math.abs(breaks[0]!.start - made[0]!.start)).toBeLessThan(3);
    expect(Math.abs(breaks[0]!.end - made[0]!.end)).toBeLessThan(3);
  }, 60_000);

  it('reports no breaks (an empty edit list) for a clip without any', async () => {
    expect(await detectBreaks({ tools: defaultAdTools, iniSource: ini, file: plain, workDir: work('none'), timeoutMs: 120_000 })).toEqual([]);
  }, 60_000);

  it('still gets an edit list when the user detector.ini says output_edl=0, even in a comment', async () => {
    const configDir = work('config');
    const userIni = path.join(configDir, 'detector.ini');
    fs.writeFileSync(userIni, `; tip: set output_edl=0 to stop writing edit lists\n${DETECTOR_INI}output_edl=0\n`);
    const resolved = resolveDetectorConfig(configDir, '/nonexistent/bundled.ini');
    expect(resolved).toEqual({ path: userIni, source: 'user' });

    // The gotcha is real: comskip reading that file (or the file with output_edl=1 appended) writes no
    // edit list, not even the empty one it writes for a clip without breaks.
    const naive = work('naive');
    fs.writeFileSync(path.join(naive, 'appended.ini'), `${fs.readFileSync(userIni, 'utf8')}output_edl=1\n`);
    spawnSync('comskip', [`--ini=${path.join(naive, 'appended.ini')}`, `--output=${naive}`, plain]);
    expect(fs.existsSync(path.join(naive, `${path.basename(plain, '.ts')}.edl`))).toBe(false);

    const breaks = await detectBreaks({ tools: defaultAdTools, iniSource: resolved.path, file: clip, workDir: work('forced'), timeoutMs: 120_000 });
    expect(breaks).toHaveLength(1);
  }, 60_000);

  it('fails (no usable edit list) when comskip overruns its timeout, and does not leave it running', async () => {
    const started = Date.now();
    const err = await detectBreaks({ tools: defaultAdTools, iniSource: ini, file: clip, workDir: work('timeout'), timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DetectFailed);
    expect((err as Error).message).toMatch(/did not finish/);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('runs comskip at niceness 10, through nice or by lowering the priority after spawning', async () => {
    for (const nice of ['nice', '']) {
      const seen: number[] = [];
      const tools = {
        ...defaultAdTools,
        nice,
        spawn: ((cmd, args, opts) => {
          const child = defaultAdTools.spawn(cmd, args, opts);
          const timer = setInterval(() => {
            try {
              // /proc/<pid>/stat: field 19 is the nice value (after the parenthesised command name).
              const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
              if (fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').startsWith('comskip')) seen.push(Number(fields[16]));
            } catch {
              // exited
            }
          }, 50);
          child.on('exit', () => clearInterval(timer));
          return child;
        }) as typeof defaultAdTools.spawn,
      };
      // The clip without breaks: what is checked is the priority comskip ran at.
      const breaks = await detectBreaks({ tools, iniSource: ini, file: plain, workDir: work(`nice-${nice || 'none'}`), timeoutMs: 120_000 });
      expect(breaks).toEqual([]);
      expect(seen.length).toBeGreaterThan(0);
      // Like `nice -n 10`: 10 above the service's own niceness (0 in production; tests may run niced).
      expect(new Set(seen)).toEqual(new Set([Math.min(19, os.getPriority() + 10)]));
    }
  }, 60_000);

  it('fails on a file comskip cannot read', async () => {
    const junk = path.join(dir, 'junk.ts');
    fs.writeFileSync(junk, Buffer.alloc(4096, 7));
    await expect(detectBreaks({ tools: defaultAdTools, iniSource: ini, file: junk, workDir: work('junk'), timeoutMs: 60_000 })).rejects.toBeInstanceOf(DetectFailed);
  }, 30_000);
});
