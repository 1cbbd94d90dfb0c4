import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import os from 'node:os';

/** Starts a child process (node's `spawn` by default; passed in so tests and the bench choose). */
export type SpawnFn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** The external programs ad removal runs; paths or names on PATH. */
export interface AdTools {
  comskip: string;
  ffmpeg: string;
  ffprobe: string;
  /** `nice` (coreutils): the scan runs at niceness 10 through it; empty: the priority is lowered after spawning (Windows). */
  nice: string;
  spawn: SpawnFn;
}

export const defaultAdTools: AdTools = {
  comskip: 'comskip',
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffprobe',
  nice: process.platform === 'win32' ? '' : 'nice',
  spawn: nodeSpawn,
};

export interface ToolResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last bytes of stdout (bounded). */
  stdout: string;
  /** The last bytes of stderr (bounded). */
  stderr: string;
  timedOut: boolean;
}

/** Keeps only the last `max` bytes of a stream: a tool's output is never held unbounded. */
const tail = (max: number) => {
  let buf = Buffer.alloc(0);
  return {
    push(chunk: Buffer) {
      buf = buf.length + chunk.length > max ? Buffer.concat([buf, chunk]).subarray(-max) : Buffer.concat([buf, chunk]);
    },
    text: () => buf.toString('utf8'),
  };
};

/**
 * Runs a program to completion. `timeoutMs` kills it (SIGKILL after a SIGTERM grace of 2 s), as does
 * `signal`; both resolve rather than reject, with `timedOut` or a null code telling why.
 */
export function runTool(
  tools: Pick<AdTools, 'spawn'>,
  command: string,
  args: readonly string[],
  opts: { timeoutMs?: number; signal?: AbortSignal; cwd?: string; outputLimit?: number; niceness?: number } = {},
): Promise<ToolResult> {
  return new Promise((resolve) => {
    const limit = opts.outputLimit ?? 64 * 1024;
    const out = tail(limit);
    const err = tail(limit);
    let timedOut = false;
    let settled = false;
    let child: ChildProcess;
    try {
      child = tools.spawn(command, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      resolve({ code: null, signal: null, stdout: '', stderr: (e as Error).message, timedOut: false });
      return;
    }
    if (opts.niceness !== undefined && child.pid !== undefined) {
      try {
        // Like `nice -n N`: an increment over this process's own niceness, capped at 19.
        os.setPriority(child.pid, Math.min(19, os.getPriority() + opts.niceness));
      } catch {
        // already gone, or not permitted: run at normal priority
      }
    }
    let killTimer: NodeJS.Timeout | undefined;
    const kill = () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 2000);
      killTimer.unref();
    };
    const timer = opts.timeoutMs !== undefined ? setTimeout(() => ((timedOut = true), kill()), opts.timeoutMs) : undefined;
    const onAbort = () => kill();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) kill();
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    const finish = (code: number | null, sig: NodeJS.Signals | null, extra = '') => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({ code, signal: sig, stdout: out.text(), stderr: err.text() + extra, timedOut });
    };
    child.on('error', (e) => finish(null, null, e.message));
    child.on('close', (code, sig) => finish(code, sig));
  });
}

/** The last non-empty line of a tool's stderr, for an error message. */
export function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}

/** Container duration in seconds (`ffprobe … format=duration`), or null when it cannot be read. */
export async function probeDuration(tools: AdTools, file: string, signal?: AbortSignal): Promise<number | null> {
  const r = await runTool(tools, tools.ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { timeoutMs: 60_000, signal, outputLimit: 4096 });
  if (r.code !== 0) return null;
  const d = Number.parseFloat(r.stdout.trim());
  return Number.isFinite(d) && d > 0 ? d : null;
}

/** Where a file's timeline starts (may be negative) and how long it lasts, in seconds (`ffprobe … format=start_time,duration`). */
export async function probeTimeline(tools: AdTools, file: string, signal?: AbortSignal): Promise<{ start: number; duration: number } | null> {
  const r = await runTool(tools, tools.ffprobe, ['-v', 'error', '-show_entries', 'format=start_time,duration', '-of', 'default=noprint_wrappers=1', file], {
    timeoutMs: 60_000,
    signal,
    outputLimit: 4096,
  });
  if (r.code !== 0) return null;
  // Negative when the clock wrapped (2^33 at 90 kHz) early in the file: ffprobe counts from before the wrap.
  const start = Number.parseFloat(/start_time=(-?[\d.]+)/.exec(r.stdout)?.[1] ?? '');
  const duration = Number.parseFloat(/duration=([\d.]+)/.exec(r.stdout)?.[1] ?? '');
  return Number.isFinite(start) && Number.isFinite(duration) && duration > 0 ? { start, duration } : null;
}
