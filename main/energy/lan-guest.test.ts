import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolve } from '../core/outbound.js';
import { closedPort, startBanner, startCapture, startSilent, withoutPorts, type CaptureTarget, type Target } from '../core/testing/lan-targets.js';
import { startEnergyHarness, waitForState } from './testing/harness.js';

/**
 * A guest on the LAN against the energy bridge on a default install (no passcode), over real
 * sockets: the alert test and the place search cannot read the network for it (no remote body, one
 * answer for a closed port, a silent host and a non-HTTP service), and they are rate-limited.
 */
type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test client: tests assert bodies field by field
async function call(h: Harness, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${h.service.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Resolves `weather.example` to loopback: a name the owner did not write as an address. */
const resolve: Resolve = async (host) => {
  if (host === 'weather.example') return [{ address: '127.0.0.1', family: 4 }];
  if (net.isIP(host)) return [{ address: host, family: net.isIP(host) === 6 ? 6 : 4 }];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};

describe('the bridge does not read the network for a guest', () => {
  let h: Harness;
  let banner: Target;
  let silent: Target;
  let closed: Target;
  let secret: CaptureTarget;
  const targets = () => [banner, silent, closed];

  beforeAll(async () => {
    [banner, silent, closed, secret] = await Promise.all([startBanner(), startSilent(), closedPort(), startCapture({ body: 'TOP-SECRET-loopback-only-42' })]);
    // A silent host is given up on after 1 s, not the clients' own 5 s (webhook) and 10 s (weather).
    h = await startEnergyHarness({ deps: { resolve, outboundTimeoutMs: 1000 } });
  });
  afterAll(async () => {
    await h.stop();
    await Promise.all([...targets(), secret].map((t) => t.close()));
  });

  it('the alert test never returns the remote body: a loopback service’s secret stays there', async () => {
    const res = await call(h, 'POST', '/api/test/alert', { url: `${secret.url}/metadata` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 200, event: 'test' });
    expect(JSON.stringify(res.body)).not.toContain('TOP-SECRET');
    expect(secret.requests).toHaveLength(1);
  });

  it('the alert test says the same for a closed port, a silent host and a non-HTTP service', async () => {
    const answers = await Promise.all(targets().map((t) => call(h, 'POST', '/api/test/alert', { url: `${t.url}/hook` })));
    const ports = targets().map((t) => t.port);
    const shapes = answers.map((a) => withoutPorts(JSON.stringify({ status: a.status, ok: a.body.ok, http: a.body.status, error: a.body.error }), ports));
    expect(new Set(shapes).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ ok: false, status: null, error: `no HTTP answer from 127.0.0.1:${banner.port}` });
  }, 20_000);

  it('the test alerts are rate-limited per client: 20 in a row, only the first few are sent', async () => {
    const hook = await startCapture();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await call(h, 'POST', '/api/test/alert', { url: `${hook.url}/hook` })).status);
      // README: 6 a minute per client. This client already used 4 of its tests above.
      expect(statuses.filter((s) => s === 200)).toHaveLength(6 - 4);
      expect(statuses.slice(6 - 4).every((s) => s === 429)).toBe(true);
      expect(hook.requests).toHaveLength(6 - 4);
      const limited = await call(h, 'POST', '/api/test/alert', { url: `${hook.url}/hook` });
      expect(limited.body.error).toMatchObject({ code: 'rate_limited' });
      expect(limited.body.error.message).toMatch(/Too many test alerts: at most 6 per minute/);
    } finally {
      await hook.close();
    }
  });

  it('the place search says the same for a closed port, a silent host and a non-HTTP service', async () => {
    const answers = [];
    for (const t of targets()) {
      expect((await call(h, 'PUT', '/api/settings', { weather: { geocodingUrl: `${t.url}/v1/search` } })).status).toBe(200);
      answers.push(await call(h, 'GET', '/api/weather/places?name=Melbourne'));
    }
    const ports = targets().map((t) => t.port);
    const shapes = answers.map((a) => withoutPorts(JSON.stringify(a), ports));
    expect(new Set(shapes).size).toBe(1);
    expect(answers[0]!.body).toEqual({ ok: false, error: `no HTTP answer from 127.0.0.1:${banner.port}`, places: [] });
  }, 30_000);

  it('an internet service on a name that resolves home is refused, even as the setting; the address written as such is allowed', async () => {
    const geo = await startCapture({ body: JSON.stringify({ results: [{ name: 'Melbourne', latitude: -37.8, longitude: 144.9, country: 'Australia' }] }) });
    try {
      await call(h, 'PUT', '/api/settings', { weather: { geocodingUrl: `http://weather.example:${geo.port}/v1/search` } });
      const refused = await call(h, 'GET', '/api/weather/places?name=Melbourne');
      expect(refused.body).toMatchObject({ ok: false, places: [] });
      expect(refused.body.error).toMatch(/weather\.example resolves to 127\.0\.0\.1, which is on your home network .*must be on the internet/);
      expect(geo.requests).toHaveLength(0);
      await call(h, 'PUT', '/api/settings', { weather: { geocodingUrl: `http://127.0.0.1:${geo.port}/v1/search` } });
      const allowed = await call(h, 'GET', '/api/weather/places?name=Melbourne');
      expect(allowed.body).toMatchObject({ ok: true, places: [{ name: 'Melbourne', detail: 'Australia' }] });
    } finally {
      await geo.close();
    }
  });

  it('with a passcode set, the weather URLs are blanked for a guest like the webhook URLs (last: it locks this bridge)', async () => {
    await call(h, 'PUT', '/api/settings', { weather: { forecastUrl: 'http://127.0.0.1:9/v1/forecast', geocodingUrl: 'http://127.0.0.1:9/v1/search' } });
    const set = await call(h, 'POST', '/api/security/passcode', { passcode: '2468' });
    expect(set.status).toBe(200);
    const locked = await call(h, 'GET', '/api/settings');
    expect(locked.body).toMatchObject({ unlocked: false, weather: { forecastUrl: '', geocodingUrl: '' } });
    const res = await fetch(`${h.service.url}/api/settings`, { headers: { authorization: `Bearer ${set.body.token}` } });
    expect(((await res.json()) as { weather: { forecastUrl: string } }).weather.forecastUrl).toBe('http://127.0.0.1:9/v1/forecast');
  });
});

describe('the gateway connection goes through the gate too', () => {
  it('an address no connection may go to (0.0.0.0, which would reach this machine) is refused and said, never connected', async () => {
    const h = await startEnergyHarness({ env: { GATEWAY_HOST: '0.0.0.0' } });
    try {
      const s = await waitForState(h.service, (st) => st.lastError !== null);
      expect(s.connected).toBe(false);
      expect(s.lastError).toMatch(/refused: 0\.0\.0\.0 is not an address a connection can go to/);
      expect(h.sim.server.requestCount).toBe(0);
    } finally {
      await h.stop();
    }
  });

  it('a gateway name resolves once, is checked as a LAN device, and the poller connects to that address', async () => {
    const h = await startEnergyHarness({ env: { GATEWAY_HOST: 'battery.home.test' }, deps: { resolve: async (host) => (host === 'battery.home.test' ? [{ address: '127.0.0.1', family: 4 }] : []) } });
    try {
      const s = await waitForState(h.service, (st) => st.connected);
      expect(s.battery.soc).toEqual(expect.any(Number));
    } finally {
      await h.stop();
    }
  });
});
