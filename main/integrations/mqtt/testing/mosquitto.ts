import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { freePort } from '../../../core/testing/free-port.js';

export const MOSQUITTO = '/usr/sbin/mosquitto';

/** Why the broker tests cannot run here, or null (Debian's mosquitto is installed). */
export function mosquittoUnavailable(): string | null {
  return fs.existsSync(MOSQUITTO) ? null : `${MOSQUITTO} not found: install Debian's mosquitto package (CI does)`;
}

export interface Broker {
  readonly port: number;
  readonly url: string;
  /** Kills the broker (SIGKILL); `start()` runs it again on the same port. */
  kill(): Promise<void>;
  /** Freezes the broker (SIGSTOP: connections stay open, nothing is read) or thaws it (SIGCONT). */
  freeze(frozen: boolean): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Debian's mosquitto on 127.0.0.1 and a free port, from a temp config: anonymous, or with one user
 * (a password file made by mosquitto_passwd). Retained messages live in memory only.
 */
export async function startMosquitto(opts: { user?: { name: string; password: string } } = {}): Promise<Broker> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mosquitto-test-'));
  const port = await freePort();
  // Run as whoever runs the tests (as root, mosquitto would switch to its own user, who cannot read the temp folder).
  const lines = [`listener ${port} 127.0.0.1`, 'persistence false', 'log_dest stderr', 'log_type error', `user ${os.userInfo().username}`];
  if (opts.user) {
    const file = path.join(dir, 'passwd');
    const made = spawnSync('/usr/bin/mosquitto_passwd', ['-c', '-b', file, opts.user.name, opts.user.password], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
    fs.chmodSync(file, 0o600);
    lines.push('allow_anonymous false', `password_file ${file}`);
  } else {
    lines.push('allow_anonymous true');
  }
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(conf, lines.join('\n') + '\n');
  let child: ChildProcess | null = null;

  const start = async () => {
    const c = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child = c;
    const deadline = Date.now() + 5000;
    for (;;) {
      if (c.exitCode !== null) throw new Error(`mosquitto exited: ${err}`);
      if (await canConnect(port)) return;
      if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port}: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  await start();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    kill,
    start,
    freeze(frozen) {
      child?.kill(frozen ? 'SIGSTOP' : 'SIGCONT');
    },
    async close() {
      child?.kill('SIGCONT');
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/** A message as a subscriber saw it. */
export interface Seen {
  topic: string;
  payload: string;
  retain: boolean;
  at: number;
}

/** A real mqtt.js client subscribed to `topics`, recording everything it receives. */
export async function watch(url: string, topics: string[], auth: { username?: string; password?: string } = {}): Promise<{
  client: MqttClient;
  seen: Seen[];
  /** Resolves with the first message (now or later) that matches. */
  waitFor(pred: (m: Seen) => boolean, timeoutMs?: number, since?: number): Promise<Seen>;
  close(): Promise<void>;
}> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, ...auth });
  const seen: Seen[] = [];
  const waiters = new Set<() => void>();
  client.on('message', (topic, payload, packet) => {
    seen.push({ topic, payload: payload.toString('utf8'), retain: packet.retain, at: Date.now() });
    for (const w of [...waiters]) w();
  });
  await client.subscribeAsync(topics);
  return {
    client,
    seen,
    waitFor(pred, timeoutMs = 10_000, since = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = seen.slice(since).find(pred);
          if (!hit) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching MQTT message within ${timeoutMs} ms; saw: ${seen.map((m) => `${m.topic}=${m.payload.slice(0, 60)}`).slice(-8).join(' | ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      await client.endAsync(true);
    },
  };
}

/**
 * What a subscriber arriving now gets from the broker's retained store under `topics` (Home
 * Assistant after a restart sees exactly this). The broker sends a subscription's retained messages
 * before anything published after it on the same connection, so the client then publishes to a
 * sentinel topic of its own: once that arrives, the retained store has been delivered whole.
 */
export async function retained(url: string, topics: string[]): Promise<Array<{ topic: string; payload: string }>> {
  const sentinel = `hlb-test/retained-sentinel/${process.pid}-${Math.random().toString(36).slice(2)}`;
  const sub = await watch(url, [...topics, sentinel]);
  try {
    await sub.client.publishAsync(sentinel, 'end', { qos: 1 });
    await sub.waitFor((m) => m.topic === sentinel);
  } finally {
    await sub.close();
  }
  return sub.seen.filter((m) => m.retain && m.topic !== sentinel).map(({ topic, payload }) => ({ topic, payload }));
}
