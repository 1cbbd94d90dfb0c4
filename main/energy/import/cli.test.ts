import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../core/paths.js';
import { sigenFacts, sigenFolderCopy } from './testing/sigen-fixture.js';

/** The command a headless user runs, as a child process: its output and exit codes. */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cli-'));
  dirs.push(d);
  return d;
};
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts', 'import.ts'), ...args], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: '', ...env }, timeout: 60_000 });

describe('import command', () => {
  it('imports into DATA_DIR and says what it did; exit 0', () => {
    const src = sigenFolderCopy();
    dirs.push(src);
    const dataDir = tmp();
    const r = run(['--from', 'sigen-home-bridge', src], { DATA_DIR: dataDir });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`From sigen-home-bridge at ${src}`);
    expect(r.stdout).toContain(`bridge ${sigenFacts.homekit.bridge_username} with 1 paired Home app(s)`);
    expect(fs.existsSync(path.join(dataDir, 'energy', 'history.db'))).toBe(true);
  });

  it('refuses a folder that is not its folder (exit 2) and prints the usage for a missing one', () => {
    const r = run(['--from', 'sigen-home-bridge', tmp()], { DATA_DIR: tmp() });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('is not a sigen-home-bridge data folder');
    const none = run([]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('--from is missing');
    expect(none.stderr).toContain('usage: npm run import -- --from sigen-home-bridge DIR');
  });

  it('sends --from fetcharr to the fetcharr importer and refuses a program it does not know', () => {
    const fetcharr = run(['--from', 'fetcharr', tmp(), '--dry-run'], { DATA_DIR: tmp() });
    expect(fetcharr.status).toBe(1);
    expect(fetcharr.stderr).toContain('refused:');
    expect(fetcharr.stderr).not.toContain('sigen-home-bridge data folder');
    const other = run(['--from', 'home-assistant', tmp()]);
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('--from home-assistant: not a program this app imports from');
  });
});
