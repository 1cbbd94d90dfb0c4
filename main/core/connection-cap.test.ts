import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnergyService, type EnergyService } from '../energy/index.js';
import { createRecordingService, type RecordingService } from '../recordings/service.js';
import { tempDir, testConfig } from '../recordings/testing/harness.js';
import { clientAddress, MAX_CONNECTIONS_PER_ADDRESS } from './connection-cap.js';
import { silentLogger } from './logger.js';

/** Opens a TCP connection from `localAddress`; resolves once connected (the server may still close it). */
function connectFrom(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(s));
    s.on('error', reject);
  });
}

/** Whether the server closes `socket` (without answering) within a short while. */
function closedByServer(socket: net.Socket, ms = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/** A GET from a chosen source address on a fresh connection. */
function getFrom(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.get({ host: u.hostname, port: u.port, path: u.pathname, localAddress, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
}

async function holdTheCap(url: string, readPath: string) {
  const port = Number(new URL(url).port);
  const held: net.Socket[] = [];
  for (let i = 0; i < MAX_CONNECTIONS_PER_ADDRESS; i++) held.push(await connectFrom(port, '127.0.0.2'));
  const extra = await connectFrom(port, '127.0.0.2');
  const extraClosed = await closedByServer(extra);
  // Another address still connects and is served while the first holds its whole share.
  const other = await getFrom(`${url}${readPath}`, '127.0.0.3');
  // The held ones are still open (idle connections are closed only by the idle timeout).
  const heldOpen = held.filter((s) => !s.destroyed).length;
  for (const s of held) s.destroy();
  extra.destroy();
  return { extraClosed, other, heldOpen };
}

describe('connections per client address', () => {
  let dir: string;
  let energy: EnergyService;
  let recordings: RecordingService;
  beforeAll(async () => {
    dir = tempDir('conn-cap-');
    energy = createEnergyService({ dataDir: path.join(dir, 'e'), host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' } }, { logger: silentLogger });
    recordings = createRecordingService(testConfig(path.join(dir, 'r'), 1), { logger: silentLogger });
    await energy.start();
    await recordings.start();
  });
  afterAll(async () => {
    await recordings.stop();
    await energy.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the cap is the documented 64 and ::ffff: addresses count as their IPv4 address', () => {
    expect(MAX_CONNECTIONS_PER_ADDRESS).toBe(64);
    expect(clientAddress('::ffff:192.168.1.5')).toBe('192.168.1.5');
    expect(clientAddress('::1')).toBe('::1');
  });

  it('the energy bridge refuses the connection beyond the cap from one address while another address is served', async () => {
    const r = await holdTheCap(energy.url, '/api/state');
    expect(r).toEqual({ extraClosed: true, other: 200, heldOpen: MAX_CONNECTIONS_PER_ADDRESS });
  });

  it('the recording sync does the same', async () => {
    const r = await holdTheCap(recordings.url, '/healthz');
    expect(r).toEqual({ extraClosed: true, other: 200, heldOpen: MAX_CONNECTIONS_PER_ADDRESS });
  });

  it('a slot frees when a connection closes', async () => {
    const port = Number(new URL(energy.url).port);
    const held: net.Socket[] = [];
    for (let i = 0; i < MAX_CONNECTIONS_PER_ADDRESS; i++) held.push(await connectFrom(port, '127.0.0.4'));
    const closing = held.pop()!;
    await new Promise<void>((resolve) => {
      closing.once('close', () => resolve());
      closing.destroy();
    });
    // The server sees the close a moment later; retry a few times until the freed slot is there.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = await getFrom(`${energy.url}/api/state`, '127.0.0.4').catch(() => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(200);
    for (const s of held) s.destroy();
  });
});
