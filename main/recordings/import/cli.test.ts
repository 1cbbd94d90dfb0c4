import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTarget, copyFixture, fixtureAvailable, FETCHARR_FIXTURE, hashTree } from './testing.js';
import { runFetcharrImportCli } from './cli.js';

if (!fixtureAvailable()) console.warn(`fetcharr CLI tests skipped: the anchor fixture is not at ${FETCHARR_FIXTURE} (set FETCHARR_FIXTURE)`);
const suite = fixtureAvailable() ? describe : describe.skip;

suite('runFetcharrImportCli (npm run import -- --from fetcharr DIR ...)', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
  });
  const setup = () => {
    const copy = copyFixture();
    roots.push(copy.root);
    const data = path.join(copy.root, 'data');
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: { DATA_DIR: data } };
    return { copy, data, out, err, io };
  };

  it('imports into DATA_DIR/recordings/state.db and prints what it did', async () => {
    const { copy, data, out, err, io } = setup();
    const before = hashTree(copy.fetcharr);
    const code = await runFetcharrImportCli(['--from', 'fetcharr', copy.config, '--media-root-from', '/media', '--media-root-to', copy.media], io);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('recordings: 4 downloaded (4 files found), 1 to retry');
    expect(out.join('\n')).toContain('imported: shows 2 new');
    expect(hashTree(copy.fetcharr)).toEqual(before);
    const target = openTarget(path.join(data, 'recordings'));
    try {
      expect(target.shows.list().map((s) => s.name)).toEqual(['Garden Makeover', 'Quiz Night']);
      expect(target.recordings.list().filter((r) => r.status === 'done')).toHaveLength(4);
      expect(target.settings.get().media_root).toBe(copy.media);
    } finally {
      target.close();
    }
    // Twice equals once.
    out.length = 0;
    expect(await runFetcharrImportCli([copy.config, `--media-root-to=${copy.media}`], io)).toBe(0);
    expect(out.join('\n')).toContain('shows 0 new, 2 already followed; recordings 0 new, 0 updated, 5 already known; sync runs 0 new, 1 already imported');
  });

  it('takes folders relative to where it runs', async () => {
    const { copy, out, io } = setup();
    expect(await runFetcharrImportCli(['config', '--media-root-to', 'media', '--dry-run'], { ...io, cwd: copy.fetcharr })).toBe(0);
    expect(out).toContain(`media root: /media (then) → ${copy.media} (now)`);
  });

  it('--dry-run --json previews and writes nothing', async () => {
    const { copy, data, out, io } = setup();
    expect(await runFetcharrImportCli([copy.config, '--media-root-to', copy.media, '--dry-run', '--json'], io)).toBe(0);
    const { preview } = JSON.parse(out.join('\n'));
    expect(preview.counts).toMatchObject({ shows: 2, sync_runs: 1 });
    const target = openTarget(path.join(data, 'recordings'));
    try {
      expect(target.shows.list()).toEqual([]);
    } finally {
      target.close();
    }
  });

  it('refuses a folder that is not fetcharr\'s (exit 1) and bad usage (exit 2)', async () => {
    const { copy, err, io } = setup();
    expect(await runFetcharrImportCli([copy.media, '--media-root-to', copy.media], io)).toBe(1);
    expect(err[0]).toMatch(/^refused: .*not a fetcharr config folder/);
    err.length = 0;
    expect(await runFetcharrImportCli(['--media-root-to'], io)).toBe(2);
    expect(err[0]).toBe('--media-root-to needs a value');
    err.length = 0;
    expect(await runFetcharrImportCli([copy.config, '--bogus'], io)).toBe(2);
    expect(err[0]).toBe('unknown option --bogus');
    err.length = 0;
    expect(await runFetcharrImportCli([copy.config, '--media-root-to', path.join(copy.root, 'nope')], io)).toBe(1);
    expect(err[0]).toMatch(/^refused: Media folder to move to: does not exist/);
  });
});
