import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutbound, noHttpAnswer, OutboundRefused, refusalFor, type Resolve } from './outbound.js';

const servers: Array<http.Server | net.Server> = [];
const sockets = new Set<net.Socket>();
const track = <T extends net.Server>(srv: T): T => {
  srv.on('connection', (s: net.Socket) => sockets.add(s));
  servers.push(srv);
  return srv;
};
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A loopback HTTP server recording every request it gets (host header included). */
async function capture(): Promise<{ port: number; seen: Array<{ url: string; host: string }> }> {
  const seen: Array<{ url: string; host: string }> = [];
  const srv = track(
    http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', host: req.headers.host ?? '' });
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end('hello from loopback');
    }),
  );
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { port: (srv.address() as AddressInfo).port, seen };
}

const resolver = (map: Record<string, string[]>): Resolve & { calls: string[] } => {
  const calls: string[] = [];
  const fn = (async (host: string) => {
    calls.push(host);
    const found = map[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: net.isIP(address) === 6 ? (6 as const) : (4 as const) }));
  }) as Resolve & { calls: string[] };
  fn.calls = calls;
  return fn;
};

describe('the outbound policy', () => {
  it('lets LAN devices use loopback, private and link-local addresses only', () => {
    for (const ip of ['127.0.0.1', '::1', '192.168.1.20', '10.1.2.3', '172.16.0.9', '169.254.169.254', 'fe80::1', 'fd00::5']) {
      expect(refusalFor('lan-device', ip)).toBeNull();
    }
    expect(refusalFor('lan-device', '93.184.216.34')).toMatch(/internet address/);
    expect(refusalFor('lan-device', '100.64.0.1')).toMatch(/shared address space/);
  });

  it('keeps internet services off the home network unless the owner set that address', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '192.168.1.20', '169.254.169.254', 'fe80::1', '100.64.0.1']) {
      expect(refusalFor('internet', ip)).toMatch(/home network|shared address space/);
      expect(refusalFor('internet', ip, true)).toBeNull();
    }
    expect(refusalFor('internet', '93.184.216.34')).toBeNull();
  });

  it('lets a webhook go where the owner pointed it, and nobody to unspecified or multicast addresses', () => {
    expect(refusalFor('webhook', '192.168.1.5')).toBeNull();
    expect(refusalFor('webhook', '93.184.216.34')).toBeNull();
    for (const purpose of ['webhook', 'lan-device', 'internet'] as const) {
      for (const ip of ['0.0.0.0', '::', '224.0.0.251', '255.255.255.255', 'ff02::1', '::ffff:0.0.0.0']) expect(refusalFor(purpose, ip, true)).not.toBeNull();
    }
  });

  it('says the same words for every kind of missing HTTP answer, with the port spelled out', () => {
    expect(noHttpAnswer('http://127.0.0.1/x')).toBe('no HTTP answer from 127.0.0.1:80');
    expect(noHttpAnswer('https://[::1]:8443/')).toBe('no HTTP answer from [::1]:8443');
  });
});

describe('the outbound gate over real sockets', () => {
  it('refuses an internet service on loopback before any connection is made', async () => {
    const cap = await capture();
    const gate = createOutbound();
    const url = `http://127.0.0.1:${cap.port}/v1/search`;
    await expect(gate.fetch({ purpose: 'internet', configured: ['https://geocoding-api.open-meteo.com/v1/search'] }, url)).rejects.toBeInstanceOf(OutboundRefused);
    expect(cap.seen).toEqual([]);
  });

  it('lets an internet service on loopback through when that very origin is the setting', async () => {
    const cap = await capture();
    const gate = createOutbound();
    const setting = `http://127.0.0.1:${cap.port}/v1/forecast`;
    const res = await gate.fetch({ purpose: 'internet', configured: [setting] }, `${setting}?latitude=1`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello from loopback');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    // Another port on the same host is another origin: refused.
    await expect(gate.fetch({ purpose: 'internet', configured: [setting] }, `http://127.0.0.1:${cap.port + 1}/`)).rejects.toBeInstanceOf(OutboundRefused);
  });

  it('checks what a name resolves to: a name pointing home is refused for an internet service, even next to a public address', async () => {
    const cap = await capture();
    const resolve = resolver({ 'weather.example': ['127.0.0.1'], 'mixed.example': ['93.184.216.34', '127.0.0.1'] });
    const gate = createOutbound({ resolve });
    await expect(gate.fetch({ purpose: 'internet' }, `http://weather.example:${cap.port}/`)).rejects.toThrow(/weather\.example resolves to 127\.0\.0\.1/);
    await expect(gate.fetch({ purpose: 'internet' }, `http://mixed.example:${cap.port}/`)).rejects.toThrow(/home network/);
    await expect(gate.fetch({ purpose: 'lan-device' }, `http://mixed.example:${cap.port}/`)).rejects.toThrow(/internet address/);
    // Even as the very setting: a name is not an address the owner wrote, and a name can be made to point anywhere.
    await expect(gate.fetch({ purpose: 'internet', configured: [`http://weather.example:${cap.port}/`] }, `http://weather.example:${cap.port}/`)).rejects.toThrow(/home network/);
    expect(cap.seen).toEqual([]);
  });

  it('connects to the address it checked: the name is resolved once, the Host header keeps the name', async () => {
    const cap = await capture();
    const resolve = resolver({ 'box.home.test': ['127.0.0.1'] });
    const gate = createOutbound({ resolve });
    const res = await gate.fetch({ purpose: 'lan-device' }, `http://box.home.test:${cap.port}/desc.xml`);
    expect(await res.text()).toBe('hello from loopback');
    expect(resolve.calls).toEqual(['box.home.test']);
    expect(cap.seen).toEqual([{ url: '/desc.xml', host: `box.home.test:${cap.port}` }]);
  });

  it('fails like fetch on a closed port and on a service that does not speak HTTP', async () => {
    const banner = track(net.createServer((s) => s.end('SSH-2.0-OpenSSH_9.2\r\n\0\0garbage')));
    await new Promise<void>((r) => banner.listen(0, '127.0.0.1', r));
    const gate = createOutbound();
    const bannerErr = await gate.fetch({ purpose: 'lan-device' }, `http://127.0.0.1:${(banner.address() as AddressInfo).port}/`).catch((e: unknown) => e);
    expect(bannerErr).toBeInstanceOf(TypeError);
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const closedErr = (await gate.fetch({ purpose: 'lan-device' }, `http://127.0.0.1:${closedPort}/`).catch((e: unknown) => e)) as TypeError & { cause?: { code?: string } };
    expect(closedErr.cause?.code).toBe('ECONNREFUSED');
  });

  it('gives up with the signal reason (a timeout is a TimeoutError, as with fetch)', async () => {
    const silent = track(net.createServer(() => undefined));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const gate = createOutbound();
    const err = (await gate.fetch({ purpose: 'lan-device' }, `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e)) as Error;
    expect(err.name).toBe('TimeoutError');
  });

  it('gives up on a silent host after its own timeout when that is shorter than the caller’s, and keeps the caller’s when not', async () => {
    const silent = track(net.createServer(() => undefined));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    const started = performance.now();
    const capped = (await createOutbound({ timeoutMs: 100 })
      .fetch({ purpose: 'lan-device' }, url, { signal: AbortSignal.timeout(20_000) })
      .catch((e: unknown) => e)) as Error;
    expect(capped.name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(10_000);
    const callers = (await createOutbound({ timeoutMs: 20_000 })
      .fetch({ purpose: 'lan-device' }, url, { signal: AbortSignal.timeout(50) })
      .catch((e: unknown) => e)) as Error;
    expect(callers.name).toBe('TimeoutError');
  });
});
