import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './core/paths.js';
import { freePort } from './core/testing/free-port.js';

/**
 * What the README tells a home server to run is `npm start`, and what systemd, `docker stop` or a
 * process manager sends it is SIGTERM (a terminal's Ctrl+C: SIGINT to the group). These tests go
 * through npm itself: npm 11 exits at once on SIGTERM, so the service must be the process npm
 * signals and waits for, not a grandchild left behind holding both ports.
 */

/** Every descendant pid of `pid`, from /proc (Linux). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(pid);
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};


/** True when nothing listens on the port: binding it succeeds. */
async function portFree(port: number): Promise<boolean> {
  const server = net.createServer();
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (ok) await new Promise((r) => server.close(r));
  return ok;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

const npm = process.env.npm_execpath ? { cmd: process.execPath, args: [process.env.npm_execpath] } : { cmd: 'npm', args: [] as string[] };

describe('`npm start` (compiled, the README command) and stop signals', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-start-'));
  beforeAll(() => {
    // `npm start` builds what is missing (prestart); build here once so the timed part is the start.
    const res = spawnSync(npm.cmd, [...npm.args, 'run', '--silent', 'prestart'], { cwd: repoRoot, stdio: 'inherit' });
    expect(res.status).toBe(0);
  }, 300_000);
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((f) => f()));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm stops both services cleanly, frees both ports and leaves no process behind`, async () => {
      const [energyPort, recordingsPort] = [await freePort(), await freePort()];
      const child = spawn(npm.cmd, [...npm.args, 'start'], {
        cwd: repoRoot,
        env: { ...process.env, VITEST: '', DATA_DIR: path.join(tmp, signal), SERVER_PORT: String(energyPort), PORT: String(recordingsPort), BIND_HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      child.stdout.on('data', (c: Buffer) => (log += c.toString()));
      child.stderr.on('data', (c: Buffer) => (log += c.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));

      // Up: both pages answer (the started services, not just an open socket).
      for (let i = 0; i < 600 && !((await answers(`http://127.0.0.1:${energyPort}/api/state`)) && (await answers(`http://127.0.0.1:${recordingsPort}/api/shows`))); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await answers(`http://127.0.0.1:${energyPort}/api/state`)).toBe(true);
      expect(await answers(`http://127.0.0.1:${recordingsPort}/api/shows`)).toBe(true);
      const tree = descendants(child.pid!);
      expect(tree.length).toBeGreaterThan(0);
      // Whatever happens below, nothing this test started outlives it.
      cleanups.push(() => [child.pid!, ...tree].filter(alive).forEach((pid) => process.kill(pid, 'SIGKILL')));

      child.kill(signal);
      // Bounded: an npm that never exits fails here instead of hanging the suite.
      const result = await Promise.race([exited, new Promise<'npm still running 30 s after the signal'>((r) => setTimeout(() => r('npm still running 30 s after the signal'), 30_000))]);

      // npm reports the service's own clean exit, after the service is gone.
      expect(result).toEqual({ code: 0, signal: null });
      expect(tree.filter(alive)).toEqual([]);
      expect(await portFree(energyPort)).toBe(true);
      expect(await portFree(recordingsPort)).toBe(true);
      const lines = log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; signal?: string });
      expect(lines.find((l) => l.msg === 'stopping')?.signal).toBe(signal);
    }, 120_000);
  }
});
