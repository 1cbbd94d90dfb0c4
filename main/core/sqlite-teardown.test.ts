import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './sqlite.js';

/**
 * better-sqlite3 12.x aborted the process under Node 24 (`Assertion failed: (env) != nullptr` in
 * `node::RemoveEnvironmentCleanupHook`, from `Statement::~Statement()`), in the history writer
 * child and at exit. The child here has that shape, larger: worker threads holding prepared
 * statements on their own connections exit three ways under GC pressure beside a loaded writer,
 * then the writer makes and drops 80,000 statements with no event-loop turn, and the process exits
 * with everything open. With 12.x (SQLITE_TEARDOWN_MODULE pointing at a 12.11 build for Node 24)
 * the same child aborts with exit 134 within seconds; the driver we ship must finish it cleanly.
 */
describe('SQLite under worker-thread teardown and GC pressure', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-teardown-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('never aborts: every worker exits, the writer finishes, the process exits 0, the file is intact', async () => {
    // Plain node (its own type stripping), not tsx: tsx's hooks would load again in each of the 24 workers.
    const child = spawn(process.execPath, ['--expose-gc', path.join(import.meta.dirname, 'testing', 'sqlite-teardown-child.ts'), tmp], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );

    expect(stderr).not.toContain('Assertion failed');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as { ok: boolean; workers: number; exits: Record<string, number>; rows: number };
    expect(summary.workers).toBe(24);
    // Each way out happened: returning, process.exit() inside the worker, terminate() mid-query.
    expect(summary.exits['return:0']).toBeGreaterThan(0);
    expect(summary.exits['exit:0']).toBeGreaterThan(0);
    expect(summary.exits['terminate:1']).toBeGreaterThan(0);
    expect(Object.values(summary.exits).reduce((a, b) => a + b, 0)).toBe(24);
    expect(summary.rows).toBeGreaterThan(80_000);

    const db = openDatabase(path.join(tmp, 'teardown.db'), []);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((db.prepare('SELECT count(*) AS n FROM samples').get() as { n: number }).n).toBe(2000);
    } finally {
      db.close();
    }
  }, 180_000);
});
