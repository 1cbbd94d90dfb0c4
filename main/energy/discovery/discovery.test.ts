import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { startBanner } from '../../core/testing/lan-targets.js';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyDeps } from '../index.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { discoverGateways, hostsOf, loopbackInterfaces, subnetsToScan, underTestRunner, type InterfaceList } from './lan-scan.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startService(env: Record<string, string>, deps: Partial<EnergyDeps> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-discovery-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const service = createEnergyService({ dataDir, host: '127.0.0.1', port: 0, env }, { logger: silentLogger, ...deps });
  await service.start();
  cleanups.push(() => service.stop());
  const call = (url: string, body: unknown, token?: string) =>
    service.app.inject({ method: 'POST', url, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { service, call };
}

async function sim(opts: Parameters<typeof startGatewaySimulator>[0]): Promise<GatewaySimulator> {
  const s = await startGatewaySimulator(opts);
  cleanups.push(() => s.close());
  return s;
}

/** A TCP listener that accepts connections and never speaks Modbus. */
async function plainListener(host: string, port: number): Promise<void> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
}

const iface = (address: string, internal: boolean, family: 'IPv4' | 'IPv6' = 'IPv4') => ({
  address,
  netmask: family === 'IPv4' ? '255.255.255.0' : 'ffff:ffff:ffff:ffff::',
  family,
  mac: '02:00:00:00:00:01',
  internal,
  cidr: null,
  ...(family === 'IPv6' ? { scopeid: 0 } : {}),
});

describe('which networks the scan covers', () => {
  const list = {
    lo: [iface('127.0.0.1', true), iface('::1', true, 'IPv6')],
    eth0: [iface('192.168.1.23', false), iface('fe80::1', false, 'IPv6')],
    wlan0: [iface('192.168.1.40', false)],
    docker0: [iface('172.17.0.1', false)],
  } as InterfaceList;

  it('takes the /24 of each non-internal IPv4 interface, once', () => {
    expect(subnetsToScan(list)).toEqual(['192.168.1', '172.17.0']);
    expect(hostsOf(['192.168.1'])).toHaveLength(254);
    expect(hostsOf(['192.168.1'])[0]).toBe('192.168.1.1');
    expect(hostsOf(['192.168.1']).at(-1)).toBe('192.168.1.254');
  });

  it('never sweeps an interface on a public or carrier-shared network (the outbound gate: the gateway is a LAN device)', () => {
    const withPublic = { ...list, wan0: [iface('93.184.216.34', false)], cgnat: [iface('100.64.3.7', false)] } as InterfaceList;
    expect(subnetsToScan(withPublic)).toEqual(['192.168.1', '172.17.0']);
  });

  it('includes internal interfaces only when asked', () => {
    expect(subnetsToScan(list, { includeInternal: true })).toEqual(['127.0.0', '192.168.1', '172.17.0']);
    expect(subnetsToScan(loopbackInterfaces('127.0.0.1'))).toEqual([]);
  });

  it('keeps to loopback networks under a test runner, whatever interfaces it is given', () => {
    expect(underTestRunner()).toBe(true);
    expect(underTestRunner({ TEST_WORKER_INDEX: '0' })).toBe(true);
    expect(underTestRunner({})).toBe(false);
    expect(subnetsToScan(list, { includeInternal: true, loopbackOnly: true })).toEqual(['127.0.0']);
    expect(subnetsToScan(list, { loopbackOnly: true })).toEqual([]);
  });
});

describe('gateway discovery over a loopback /24', () => {
  it('finds exactly the two gateways and skips a listener that is not one', async () => {
    const first = await sim({ host: '127.0.0.7', firmware: 'V2.9', initialSoc: 33 });
    const port = first.port;
    await sim({ host: '127.0.0.9', port, firmware: 'V2.5', initialSoc: 77 });
    await plainListener('127.0.0.8', port);
    const { call } = await startService(
      { GATEWAY_HOST: '127.0.0.7', GATEWAY_PORT: String(port) },
      { interfaces: () => loopbackInterfaces('127.0.0.1'), discoveryPort: port, discoveryIncludeInternal: true, clock: createManualClock() },
    );
    const res = await call('/api/discover/gateway', {});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.scannedHosts).toBe(254);
    expect(body.ms).toBeTypeOf('number');
    expect(body.gateways.map((g: { host: string }) => g.host)).toEqual(['127.0.0.7', '127.0.0.9']);
    expect(body.gateways[0]).toMatchObject({ port });
    expect(body.gateways[0].soc).toBeCloseTo(33, 0);
    expect(body.gateways[1].soc).toBeCloseTo(77, 0);
  });

  it('skips an internal interface unless the service is told to include it, and takes no options', async () => {
    // (Production passes no interface list and never sets the flag; that path is not run here so
    // that no test ever touches a real interface.)
    const { call } = await startService({ GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' }, { interfaces: () => loopbackInterfaces('127.0.0.1'), clock: createManualClock() });
    const res = await call('/api/discover/gateway', {});
    expect(res.json()).toMatchObject({ gateways: [], scannedHosts: 0 });
    expect((await call('/api/discover/gateway', { subnet: '10.0.0' })).statusCode).toBe(400);
  });
});

describe('gateway test', () => {
  it('reports SOC, model and firmware of a gateway on its own connection, leaving the live one alone', async () => {
    const live = await sim({ firmware: 'V2.9', initialSoc: 40 });
    const other = await sim({ host: '127.0.0.11', firmware: 'V2.6', initialSoc: 64 });
    const { service, call } = await startService({ GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(live.port), POLL_INTERVAL_MS: '1000' });
    await new Promise<void>((resolve) => {
      const off = service.state.subscribe((s) => {
        if (s.connected) {
          off();
          resolve();
        }
      });
    });
    const requestsBefore = service.poller.requests;

    const res = await call('/api/test/gateway', { host: '127.0.0.11', port: other.port });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, host: '127.0.0.11', port: other.port, model: 'SigenStor EC 15.0 TP AU', firmware: 'V2.6' });
    expect(body.soc).toBeCloseTo(64, 0);
    expect(body.ms).toBeTypeOf('number');
    // Within the vendor's limit of 124 registers a read (the simulator would refuse more with 0x03).
    expect(other.server.largestRead).toBeGreaterThan(0);
    expect(other.server.largestRead).toBeLessThanOrEqual(124);

    // The live connection is the same one (its request count keeps growing), still polling the first gateway.
    const polledAt = service.state.get().lastUpdated!;
    await new Promise<void>((resolve) => {
      const off = service.state.subscribe((s) => {
        if (s.lastUpdated! > polledAt) {
          off();
          resolve();
        }
      });
    });
    expect(service.state.get()).toMatchObject({ connected: true, lastError: null, gateway: { port: live.port, firmware: 'V2.9' } });
    expect(service.poller.requests).toBeGreaterThan(requestsBefore);
  });

  it('uses the configured port when none is given and reports each firmware generation', async () => {
    const gw = await sim({ host: '127.0.0.12', firmware: 'V1.8' });
    const { call } = await startService({ GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: String(gw.port) }, { clock: createManualClock() });
    for (const fw of ['V1.8', 'V2.5', 'V2.7', 'V2.8', 'V2.9'] as const) {
      gw.firmware = fw;
      const body = (await call('/api/test/gateway', { host: '127.0.0.12' })).json();
      expect(body).toMatchObject({ ok: true, port: gw.port, firmware: fw });
    }
  });

  it('answers 200 with ok false and a fixable message when the host is not a gateway', async () => {
    const gw = await sim({ host: '127.0.0.13' });
    await plainListener('127.0.0.14', gw.port);
    await gw.close();
    const { call } = await startService({ GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' }, { clock: createManualClock() });
    const refused = await call('/api/test/gateway', { host: '127.0.0.13', port: gw.port });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ ok: false, error: `no Modbus answer from 127.0.0.13:${gw.port}; check the address, that the gateway is on this network and that Modbus TCP is enabled on it.` });
    const silent = (await call('/api/test/gateway', { host: '127.0.0.14', port: gw.port })).json();
    expect(silent).toMatchObject({ ok: false, error: expect.stringContaining('no Modbus answer from 127.0.0.14') });
    // A closed port, a silent host and a service that writes something that is not Modbus get the
    // same answer: a guest cannot use the test to map which ports are open on the LAN.
    const banner = await startBanner();
    cleanups.push(() => banner.close());
    const garbage = (await call('/api/test/gateway', { host: '127.0.0.1', port: banner.port })).json();
    const shape = (b: { ok: boolean; error: string }, host: string, port: number) => ({ ok: b.ok, error: b.error.replace(`${host}:${port}`, 'HOST') });
    expect(shape(garbage, '127.0.0.1', banner.port)).toEqual(shape(refused.json(), '127.0.0.13', gw.port));
    expect(shape(silent, '127.0.0.14', gw.port)).toEqual(shape(refused.json(), '127.0.0.13', gw.port));
    const bad = await call('/api/test/gateway', { host: '', port: 502 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field).toBe('host');
    expect((await call('/api/test/gateway', { host: '127.0.0.13', port: 0 })).json().error.field).toBe('port');
  });

  it('is gated by the passcode', async () => {
    const gw = await sim({ host: '127.0.0.15' });
    const { call } = await startService({ GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' }, { clock: createManualClock() });
    const { token } = (await call('/api/security/passcode', { passcode: '2468' })).json();
    expect((await call('/api/test/gateway', { host: '127.0.0.15', port: gw.port })).statusCode).toBe(401);
    expect((await call('/api/test/gateway', { host: '127.0.0.15', port: gw.port }, token)).json().ok).toBe(true);
  });
});

describe('gateway test: abuse limits', () => {
  it('refuses internet targets with a 400 naming host, without opening any connection', async () => {
    const opened: string[] = [];
    const { service } = await startService(
      { GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' },
      {
        clock: createManualClock(),
        connect: (opts) => {
          opened.push(opts.host);
          throw new Error('no connection expected in this test');
        },
      },
    );
    const hosts = ['8.8.8.8', '1.1.1.1', '100.64.0.1', '0.0.0.0', '224.0.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'];
    for (const [i, host] of hosts.entries()) {
      // A client address per request, so that the rate limit does not answer first.
      const res = await service.app.inject({ method: 'POST', url: '/api/test/gateway', payload: { host, port: 502 }, remoteAddress: `127.0.1.${i + 1}` });
      expect(res.statusCode, host).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid', field: 'host' });
    }
    expect(opened).toEqual([]);
  });

  it('accepts private, loopback and link-local targets (the probe runs against loopback only)', async () => {
    const { isPrivateAddress } = await import('../../core/private-address.js');
    for (const ip of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.50', '127.0.0.1', '169.254.10.10', '::1', 'fe80::1', 'fd12:3456::1', '::ffff:192.168.1.5']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['172.32.0.1', '11.0.0.1', '192.169.0.1', '8.8.8.8', '255.255.255.255', '::', '2001:db8::1', 'not-an-ip']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
    const gw = await sim({ host: '127.0.0.16' });
    const { call } = await startService({ GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' }, { clock: createManualClock() });
    expect((await call('/api/test/gateway', { host: 'localhost', port: gw.port })).statusCode).toBe(200);
    expect((await call('/api/test/gateway', { host: '127.0.0.16', port: gw.port })).json()).toMatchObject({ ok: true, host: '127.0.0.16' });
  });

  it('answers 429 rate_limited past a few tests a minute from one client, whatever the passcode state', async () => {
    const gw = await sim({ host: '127.0.0.17' });
    const { call, service } = await startService({ GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' }, { clock: createManualClock() });
    const from = (remoteAddress: string, token?: string) =>
      service.app.inject({ method: 'POST', url: '/api/test/gateway', payload: { host: '127.0.0.17', port: gw.port }, remoteAddress, headers: token ? { authorization: `Bearer ${token}` } : {} });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await from('127.0.0.101')).statusCode);
    // "A few per minute": some succeed, then the rest are refused; never ten in a minute.
    const firstRefused = statuses.indexOf(429);
    expect(firstRefused).toBeGreaterThanOrEqual(3);
    expect(statuses.slice(0, firstRefused).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(firstRefused).every((s) => s === 429)).toBe(true);
    const refused = await from('127.0.0.101');
    expect(refused.json().error).toMatchObject({ code: 'rate_limited', message: expect.any(String) });
    expect(refused.headers['retry-after']).toBeDefined();
    // Per client: another address still gets its answer.
    expect((await from('127.0.0.102')).statusCode).toBe(200);

    // With a passcode set, a locked client is refused (401) and is still counted.
    const { token } = (await call('/api/security/passcode', { passcode: '2468' })).json();
    expect((await from('127.0.0.103')).statusCode).toBe(401);
    expect((await from('127.0.0.103', token)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) await from('127.0.0.104');
    expect((await from('127.0.0.104', token)).statusCode).toBe(429);
  });
});

describe('scan concurrency (spec: 254 hosts per /24, 64 concurrent, 600 ms connect timeout)', () => {
  it('keeps exactly 64 probes in flight, never more, probes each of the 254 hosts once with a 600 ms timeout', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const probed: string[] = [];
    const timeouts = new Set<number>();
    // A probe that only counts (no socket): it stays in flight for a few ms, like a slow host.
    const probe = async (host: string, port: number, timeoutMs: number) => {
      probed.push(`${host}:${port}`);
      timeouts.add(timeoutMs);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 2));
      inFlight--;
      return host.endsWith('.77') || host.endsWith('.200');
    };
    const confirmed: string[] = [];
    const result = await discoverGateways({
      interfaces: loopbackInterfaces('127.0.0.1'),
      includeInternal: true,
      port: 502,
      probe,
      confirm: async (host) => {
        confirmed.push(host);
        return host.endsWith('.77') ? 42 : null;
      },
    });
    expect(maxInFlight).toBe(64);
    expect(probed).toHaveLength(254);
    expect(new Set(probed).size).toBe(254);
    expect(probed[0]).toBe('127.0.0.1:502');
    expect([...timeouts]).toEqual([600]);
    expect(result.scannedHosts).toBe(254);
    expect(confirmed.sort()).toEqual(['127.0.0.200', '127.0.0.77']);
    expect(result.gateways).toEqual([{ host: '127.0.0.77', port: 502, soc: 42 }]);
  });
});
