import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { createRecordingService } from '../service.js';
import { sha256File, tempDir, testConfig } from '../testing/harness.js';
import { makeClip } from './testing/clips.js';

/**
 * Mark's chaptered copy in place of the recording, killed -9 between its steps: the recording is
 * at its path, or under both names; never lost. The next start completes a move killed between
 * its link and its unlink, and forgets one that never started.
 */
describe('a process killed while the original moves into its originals folder', () => {
  const dir = tempDir('inplace-crash-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A marked recording (its .mkv beside it) whose row already names the kept original, known to a stopped service. */
  async function markedRecording(name: string) {
    const config = testConfig(path.join(dir, name), 9);
    const mediaRoot = path.join(dir, name, 'media');
    const file = path.join(mediaRoot, 'Show', 'Show - S01E01 - Pilot.ts');
    const kept = path.join(mediaRoot, 'Show', '.recording-originals', 'Show - S01E01 - Pilot.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(makeClip([{ kind: 'programme', seconds: 20 }]), file);
    fs.writeFileSync(file.replace(/\.ts$/, '.mkv'), 'the chaptered copy');
    const hash = sha256File(file);
    const service = createRecordingService(config, { logger: silentLogger });
    await service.start();
    service.recordings.writeOutcome(
      { box_id: '1', show_id: null, box_udn: null, show_title: 'Show', box_title: 'S1 E1 - Pilot', season: 1, episode: 1, status: 'done', error: null, expected_size: 1, file_path: file },
      Date.now(),
    );
    await service.stop();
    // As the pipeline leaves it just before the move: the row names where the original goes.
    const db = new Database(config.dbPath);
    db.prepare("UPDATE recordings SET original_path = ?, ad_status = 'marked' WHERE box_id = '1'").run(kept);
    db.close();
    return { config, mediaRoot, file, kept, hash };
  }

  const restart = async (config: ReturnType<typeof testConfig>) => {
    const service = createRecordingService(config, { logger: silentLogger });
    await service.start();
    const row = service.recordings.get('1')!;
    await service.stop();
    return row;
  };

  it('killed between the link and the unlink: both names hold the original; the next start leaves only the kept one', async () => {
    const { config, mediaRoot, file, kept, hash } = await markedRecording('linked');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'testing', 'in-place-crash-child.ts'), file, mediaRoot], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const line = await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve));
    expect(line).toBe('LINKED');
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(sha256File(file)).toBe(hash);
    expect(sha256File(kept)).toBe(hash);

    const row = await restart(config);
    expect(row.original_path).toBe(kept);
    expect(fs.existsSync(file)).toBe(false);
    expect(sha256File(kept)).toBe(hash);
    expect(fs.readdirSync(path.dirname(file)).filter((n) => !n.startsWith('.'))).toEqual(['Show - S01E01 - Pilot.mkv']);
  }, 60_000);

  it('killed before the move began: the recording stays at its path and the row no longer names a kept original', async () => {
    const { config, file, kept, hash } = await markedRecording('before');
    const row = await restart(config);
    expect(sha256File(file)).toBe(hash);
    expect(fs.existsSync(kept)).toBe(false);
    expect(row.original_path).toBeNull();
  }, 60_000);
});
