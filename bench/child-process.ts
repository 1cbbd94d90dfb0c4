/**
 * Figures of a service a benchmark runs as a process of its own (Linux /proc): when its port
 * answers, its memory and CPU time, and stopping it.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/**
 * A `/proc/PID/status` memory line in bytes: VmRSS (resident now; worker threads share it) or VmHWM
 * (the peak of VmRSS over the process's life).
 */
export function procBytes(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
}

/** Resident set of a process in MB (MiB, as `ps` and `top` count). */
export const rssMb = (pid: number): number => procBytes(pid, 'VmRSS') / 1024 / 1024;

/** CPU time (user + system, all threads) a process has used so far, in ms (Linux /proc, 100 ticks a second). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Polls `url` until it answers 200; returns the moment it did (performance.now()). */
export async function answersAt(url: string, child: ChildProcess, deadlineMs = 120_000): Promise<number> {
  const t0 = performance.now();
  let exited = false;
  child.once('exit', () => (exited = true));
  while (performance.now() - t0 < deadlineMs && !exited) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} did not answer${exited ? ' (the process exited)' : ''}`);
}

/** SIGTERM, then waits for the exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/**
 * The environment a benchmark gives a service started with `npm start`'s command: this process's,
 * then what `npm start` sets (`startEnv`), then loopback only: its data folder, the gateway (a
 * simulator) polled at 1 s, both services' ports, no log output.
 */
export function loopbackServiceEnv(startEnv: Record<string, string>, o: { dataDir: string; gateway: { host: string; port: number }; energyPort: number; recordingsPort: number }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...startEnv,
    DATA_DIR: o.dataDir,
    GATEWAY_HOST: o.gateway.host,
    GATEWAY_PORT: String(o.gateway.port),
    POLL_INTERVAL_MS: '1000',
    SERVER_PORT: String(o.energyPort),
    PORT: String(o.recordingsPort),
    BIND_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    NODE_ENV: '',
  };
}
