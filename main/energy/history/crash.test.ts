import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { repoRoot } from '../../core/paths.js';
import { createHistory } from './index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Runs the appending child (or with `import:<file>`, the importing one) until it has acknowledged `acks` lines, then SIGKILLs it mid-loop. */
function runAndKill(dataDir: string, startT: number | string, acks: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', 'testing', 'history', 'crash-child.ts'), dataDir, String(startT)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!killed && out.split('\n').length > acks) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited ${code} before the kill: ${err}`));
      // Only complete lines are acknowledgements; a torn last line was never fully printed.
      const lines = out.split('\n');
      lines.pop();
      resolve(lines.map(Number));
    });
  });
}

describe('crash safety of the durable copy', () => {
  it('keeps every acknowledged sample and an intact database after kill -9 during writes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-crash-'));
    dirs.push(dataDir);
    const start = Date.UTC(2026, 0, 1);
    const acked = await runAndKill(dataDir, start, 3000);
    expect(acked.length).toBeGreaterThanOrEqual(3000);
    // A second run appends after a crash recovery, then is killed again.
    const again = await runAndKill(dataDir, acked.at(-1)! + 1_000_000, 1000);

    const file = path.join(dataDir, 'energy', 'history.db');
    const db = new Database(file);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Set((db.prepare('SELECT t FROM samples').pluck().all() as number[]));
      const missing = [...acked, ...again].filter((t) => !stored.has(t));
      expect(missing).toEqual([]);
      // At most the poll in flight is extra: committed but not yet printed when the kill landed.
      expect(stored.size - acked.length - again.length).toBeLessThanOrEqual(2);
      // The minute tier committed with each row: it counts exactly the stored samples.
      expect(db.prepare('SELECT sum(n) FROM minute').pluck().get()).toBe(stored.size);
    } finally {
      db.close();
    }

    // The service reopens it and serves everything.
    const history = createHistory({ dataDir, clock: createManualClock(again.at(-1)! + 1000), logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
    history.start();
    try {
      expect(history.stats().count).toBeGreaterThanOrEqual(acked.length + again.length);
      expect(history.stats().firstT).toBe(start);
    } finally {
      history.stop();
    }
  }, 60_000);

  it('keeps whole batches with their tiers after kill -9 mid-import; the next start imports the rest', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crash-import-'));
    dirs.push(dataDir);
    fs.mkdirSync(path.join(dataDir, 'energy'));
    const file = path.join(dataDir, 'energy', 'history.json');
    const rows = 60_000;
    const start = 1_767_225_600_000;
    fs.writeFileSync(file, JSON.stringify(Array.from({ length: rows }, (_, i) => ({ t: start + i * 1000, solar: i % 5000, grid: -(i % 700), soc: 50 }))));
    const done = await runAndKill(dataDir, `import:${file}`, 4);
    expect(done.at(-1)).toBeGreaterThan(0);
    expect(done.at(-1)).toBeLessThan(rows);

    const db = new Database(path.join(dataDir, 'energy', 'history.db'), { readonly: true });
    let stored: number;
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      stored = db.prepare('SELECT count(*) FROM samples').pluck().get() as number;
      expect(stored).toBeGreaterThanOrEqual(done.at(-1)!);
      // Each batch committed with its minutes and hours: the tiers count exactly the stored samples.
      expect(db.prepare('SELECT sum(n) FROM minute').pluck().get()).toBe(stored);
      expect(db.prepare('SELECT sum(n) FROM hour').pluck().get()).toBe(stored);
    } finally {
      db.close();
    }
    // The file is still there (never renamed half-imported); the next start imports the rest once.
    expect(fs.existsSync(file)).toBe(true);
    const history = createHistory({ dataDir, clock: createManualClock(start + rows * 1000), logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
    history.start();
    try {
      const [report] = await history.importLegacy();
      expect(report).toEqual({ file, status: 'imported', imported: rows - stored, skipped: stored });
      expect(history.stats().count).toBe(rows);
      expect(fs.existsSync(`${file}.imported`)).toBe(true);
    } finally {
      history.stop();
    }
  }, 60_000);
});
