import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { createRecordingService } from '../service.js';
import { sha256File, tempDir, testConfig } from '../testing/harness.js';
import { makeClip, twoAdBreak } from './testing/clips.js';
import { WORK_DIR_NAME } from './work-dir.js';

describe('a process killed in the middle of the swap', () => {
  const dir = tempDir('adcut-crash-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A recording with one break, known to a stopped service; a child process then cuts it and hangs at `stage`. */
  async function killedAt(name: string, stage: 'SWAPPING' | 'CUTTING') {
    const config = testConfig(path.join(dir, name), 9);
    const file = path.join(dir, name, 'media', 'Show', 'Show - S01E01 - Pilot.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(makeClip([{ kind: 'programme', seconds: 40 }, ...twoAdBreak(10), { kind: 'programme', seconds: 40 }]), file);
    const hash = sha256File(file);

    const service = createRecordingService(config, { logger: silentLogger });
    await service.start();
    service.recordings.writeOutcome(
      { box_id: '1', show_id: null, box_udn: null, show_title: 'Show', box_title: 'S1 E1 - Pilot', season: 1, episode: 1, status: 'done', error: null, expected_size: 1, file_path: file },
      Date.now(),
    );
    await service.stop();

    const args = [path.join(import.meta.dirname, 'testing', 'swap-crash-child.ts'), file, ...(stage === 'CUTTING' ? ['mid-cut'] : [])];
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const line = await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve));
    expect(line).toBe(stage);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    return { config, file, hash };
  }

  /** The next start: the recording is back as it was, alone in its folder (no copy, no work folder). */
  async function expectIntactAfterStart(config: ReturnType<typeof testConfig>, file: string, hash: string) {
    const service = createRecordingService(config, { logger: silentLogger });
    await service.start();
    try {
      expect(sha256File(file)).toBe(hash);
      expect(fs.readdirSync(path.dirname(file))).toEqual(['Show - S01E01 - Pilot.ts']);
    } finally {
      await service.stop();
    }
  }

  it('gets the original back at its path on the next start, and no work folder survives', async () => {
    const { config, file, hash } = await killedAt('swap', 'SWAPPING');
    // The crash left the original renamed away and the intermediates behind.
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.orig`)).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(file), WORK_DIR_NAME))).toBe(true);

    await expectIntactAfterStart(config, file, hash);
  }, 60_000);

  it('killed in the middle of copying the kept packets: the recording is untouched, the work folder goes at the next start', async () => {
    const { config, file, hash } = await killedAt('mid-cut', 'CUTTING');
    expect(sha256File(file)).toBe(hash);
    expect(fs.existsSync(`${file}.orig`)).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(file), WORK_DIR_NAME))).toBe(true); // the cut was under way

    await expectIntactAfterStart(config, file, hash);
  }, 60_000);
});
