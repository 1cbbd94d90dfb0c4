import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../core/clock.js';
import { silentLogger } from '../core/logger.js';
import { memoryLogger } from '../core/testing/memory-logger.js';
import { createEnergyService, type EnergyDeps, type EnergyService } from './index.js';

const dirs: string[] = [];
const services: EnergyService[] = [];
const sockets: Array<{ destroy(): void }> = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of services.splice(0)) await s.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function start(deps: Partial<EnergyDeps> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-sse-'));
  dirs.push(dir);
  // A loopback gateway address with nothing listening: the poller fails harmlessly; nothing leaves loopback.
  const service = createEnergyService(
    { dataDir: dir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' } },
    { logger: silentLogger, clock: createManualClock(), ...deps },
  );
  await service.start();
  services.push(service);
  return service;
}

/** `every`: ms between checks (1 where a test waits for hundreds of events, one after the other). */
async function until(cond: () => boolean, what: string, ms = 10_000, every = 10): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** An SSE client over real HTTP that parses every unnamed `data:` event (the live state). */
function sse(url: string, headers: Record<string, string> = {}) {
  const events: Array<Record<string, unknown>> = [];
  let status = 0;
  let body = '';
  const req = http.get(url, { headers }, (res) => {
    status = res.statusCode ?? 0;
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      body += status === 200 ? '' : chunk;
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const lines = block.split('\n');
        const data = lines.find((l) => l.startsWith('data: '));
        // The spec's state events only (unnamed); `event: snapshot` frames follow them (issue 41 item 5).
        if (data && status === 200 && !lines.some((l) => l.startsWith('event: '))) events.push(JSON.parse(data.slice(6)));
      }
    });
  });
  req.on('error', () => undefined);
  sockets.push(req);
  return {
    events,
    get status() {
      return status;
    },
    get body() {
      return body;
    },
    close: () => req.destroy(),
  };
}

describe('event stream limits', () => {
  it('refuses the client over the eventStreamMaxClients cap with 503 and the error body, and admits one when a slot frees', async () => {
    const service = await start();
    await fetch(`${service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ general: { eventStreamMaxClients: 2 } }) });
    const a = sse(`${service.url}/events`);
    const b = sse(`${service.url}/events`);
    await until(() => service.events.clientCount === 2, 'two clients');
    const c = sse(`${service.url}/events`);
    await until(() => c.status !== 0 && c.body.length > 0, 'the third answer');
    expect(c.status).toBe(503);
    expect(JSON.parse(c.body)).toEqual({ error: { code: 'too_many_clients', message: expect.any(String) } });
    expect(a.events).toHaveLength(1);
    expect(b.events).toHaveLength(1);

    a.close();
    await until(() => service.events.clientCount === 1, 'a slot to free');
    const d = sse(`${service.url}/events`);
    await until(() => d.events.length === 1, 'the new client’s first event');
    expect(d.status).toBe(200);
  });

  it('drops a client that never reads once its unsent buffer passes the bound; a reading client keeps every event', async () => {
    const bound = 64 * 1024;
    const service = await start({ eventStream: { maxBufferedBytes: bound } });
    const reader = sse(`${service.url}/events`);
    // The stalled client: a raw socket that sends the request and never reads a byte.
    const stalled = net.connect(Number(new URL(service.url).port), '127.0.0.1');
    sockets.push(stalled);
    stalled.on('error', () => undefined);
    stalled.pause();
    stalled.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await until(() => service.events.clientCount === 2, 'both clients');

    // 16 KB events: whatever the kernel buffers hold, the server-side queue for the stalled client
    // stops at the bound plus one event, then it is dropped.
    const pad = 'x'.repeat(16 * 1024);
    let sent = 0;
    while (service.events.clientCount === 2 && sent < 2000) {
      service.events.broadcast({ seq: sent++, pad });
      await until(() => reader.events.length === sent + 1, `the reader to get event ${sent}`, 10_000, 1);
    }
    expect(service.events.clientCount).toBe(1);
    expect(service.events.slowDropped).toBe(1);
    // Less than 2000 × 16 KB (32 MB) went out before the drop: the loopback kernel buffers of a
    // stalled reader hold a few MB at most, so the drop comes well before.
    expect(sent).toBeLessThan(2000);

    // The reader got every event in order and is still served.
    expect(reader.events.slice(1).map((e) => e.seq)).toEqual(Array.from({ length: sent }, (_, i) => i));
    service.events.broadcast({ seq: 'after' });
    await until(() => reader.events.at(-1)?.seq === 'after', 'the event after the drop');
  });
});

describe('gateway host in /api/state and /events while a passcode is set', () => {
  it('is blank without a session, shown with one, and shown to everyone when no passcode is set', async () => {
    const service = await start();
    const state = async (token?: string) => (await fetch(`${service.url}/api/state`, { headers: token ? { authorization: `Bearer ${token}` } : {} })).json();
    expect((await state()).gateway.host).toBe('127.0.0.5');
    const open = sse(`${service.url}/events`);
    await until(() => open.events.length === 1, 'first event');
    expect((open.events[0]!.gateway as { host: string }).host).toBe('127.0.0.5');

    const set = await fetch(`${service.url}/api/security/passcode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode: '2468' }) });
    const { token } = (await set.json()) as { token: string };
    const locked = await state();
    expect(locked.gateway.host).toBe('');
    expect(JSON.stringify(locked)).not.toContain('127.0.0.5');
    expect((await state(token)).gateway.host).toBe('127.0.0.5');

    const fresh = sse(`${service.url}/events`);
    const withSession = sse(`${service.url}/events`, { authorization: `Bearer ${token}` });
    await until(() => fresh.events.length === 1 && withSession.events.length === 1, 'first events');
    // Every later event too, including one whose error names the gateway, and for the client
    // that connected before the passcode was set.
    service.state.update({ connected: false, lastError: 'connect ECONNREFUSED 127.0.0.5:9' });
    await until(() => fresh.events.length === 2 && open.events.length === 2 && withSession.events.length === 2, 'the broadcast');
    for (const e of [...fresh.events, open.events[1]!]) {
      expect((e.gateway as { host: string }).host).toBe('');
      expect(JSON.stringify(e)).not.toContain('127.0.0.5');
    }
    expect(fresh.events[1]!.lastError).toBe('connect ECONNREFUSED (gateway):9');
    expect((withSession.events[1]!.gateway as { host: string }).host).toBe('127.0.0.5');
    expect(withSession.events[1]!.lastError).toBe('connect ECONNREFUSED 127.0.0.5:9');
  });
});

/** An SSE request from a given loopback source address. */
function sseFrom(url: string, localAddress: string) {
  const u = new URL(url);
  let status = 0;
  let body = '';
  const req = http.get({ host: u.hostname, port: u.port, path: u.pathname, localAddress, agent: false }, (res) => {
    status = res.statusCode ?? 0;
    res.setEncoding('utf8');
    res.on('data', (c: string) => (body += c));
  });
  req.on('error', () => undefined);
  sockets.push(req);
  return {
    get status() {
      return status;
    },
    get body() {
      return body;
    },
  };
}

describe('event streams are fair to every client address', () => {
  // README, "Event stream": at most 4 streams per client address, one more gets 429 too_many_streams.
  const PER_ADDRESS = 4;
  it(`100 streams from one address get ${PER_ADDRESS}; another address still gets its stream; the refusals write one warn line, no stack`, async () => {
    const { logger, lines } = memoryLogger();
    // The default global cap (100) is left as is: the per-address cap must hold below it.
    const service = await start({ logger });
    expect(service.settings.get().general.eventStreamMaxClients).toBe(100);
    const flood = Array.from({ length: 100 }, () => sseFrom(`${service.url}/events`, '127.0.0.2'));
    await until(() => flood.every((c) => c.status !== 0), 'every flood answer');
    const admitted = flood.filter((c) => c.status === 200);
    const refused = flood.filter((c) => c.status !== 200);
    expect(admitted).toHaveLength(PER_ADDRESS);
    expect(new Set(refused.map((c) => c.status))).toEqual(new Set([429]));
    await until(() => refused.every((c) => c.body.length > 0), 'the refusal bodies');
    expect(JSON.parse(refused[0]!.body)).toEqual({ error: { code: 'too_many_streams', message: expect.stringContaining('per device') } });
    expect(service.events.streamsFrom('127.0.0.2')).toBe(PER_ADDRESS);

    const other = sseFrom(`${service.url}/events`, '127.0.0.3');
    await until(() => other.status !== 0 && other.body.includes('data: '), 'the second address’s first event');
    expect(other.status).toBe(200);
    expect(service.events.clientCount).toBe(PER_ADDRESS + 1);

    // (The test service's missing built pages folder is not counted.)
    const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown });
    const warns = entries.filter((e) => e.level >= 40 && !/"root" path/.test(e.msg));
    expect(warns.length).toBeGreaterThanOrEqual(1);
    expect(warns.length).toBeLessThanOrEqual(3);
    for (const w of warns) {
      expect(w.level).toBe(40);
      expect(w.err).toBeUndefined();
    }
    expect(lines.join('\n')).not.toMatch(/\n\s+at |"stack"/);
  });

  it('the global cap refusal is logged as one warn line without a stack, not one error per try', async () => {
    const { logger, lines } = memoryLogger();
    const service = await start({ logger });
    service.settings.replace({ ...service.settings.get(), general: { ...service.settings.get().general, eventStreamMaxClients: 1 } });
    sseFrom(`${service.url}/events`, '127.0.0.2');
    await until(() => service.events.clientCount === 1, 'the one client');
    const refused = Array.from({ length: 20 }, (_, i) => sseFrom(`${service.url}/events`, `127.0.0.${10 + (i % 2)}`));
    await until(() => refused.every((c) => c.body.length > 0), 'the refusals');
    expect(new Set(refused.map((c) => c.status))).toEqual(new Set([503]));
    const warns = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((e) => e.level >= 40 && !/"root" path/.test(e.msg));
    // One line per refused address (two here) at most, warn level.
    expect(warns.map((w) => w.level), JSON.stringify(warns)).toEqual([40, 40]);
    expect(lines.join('\n')).not.toContain('"stack"');
  });

  it('the client cap setting (eventStreamMaxClients) is behind the passcode like every other setting', async () => {
    const service = await start();
    const set = await fetch(`${service.url}/api/security/passcode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode: '1357' }) });
    expect(set.status).toBe(200);
    const put = await fetch(`${service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ general: { eventStreamMaxClients: 1 } }) });
    expect(put.status).toBe(401);
    expect(((await put.json()) as { error: { code: string } }).error.code).toBe('locked');
    expect(service.settings.get().general.eventStreamMaxClients).toBe(100);
  });
});
