import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnergyService, type EnergyService } from '../energy/index.js';
import { createRecordingService, type RecordingService } from '../recordings/service.js';
import { ApiClient, tempDir, testConfig } from '../recordings/testing/harness.js';
import { checkRequestHost, machineHostNames } from './host-check.js';
import { silentLogger } from './logger.js';

/** A raw HTTP request to the loopback service with any Host / Origin header (fetch would not let us set Host). */
function raw(
  baseUrl: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: { error?: { code: string; message: string } } & Record<string, unknown> }> {
  const u = new URL(baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method, path: url, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = {};
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = { text };
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed as never });
        });
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.end(payload);
  });
}

describe('Host / Origin rule', () => {
  const opts = { allowedHosts: () => ['tv-pc.home.lan'], ownHostNames: () => ['mypc', 'mypc.local'] };
  const check = (host: string | undefined, method = 'GET', origin?: string) =>
    checkRequestHost({ method, headers: { ...(host !== undefined ? { host } : {}), ...(origin !== undefined ? { origin } : {}) } }, opts)?.code ?? 'ok';

  it('accepts IP literals, localhost, the machine name (and .local) and user-added names, with or without a port', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:5163', '192.168.1.20:8124', '[::1]', '[::1]:5163', '[fe80::1]:80', 'localhost', 'LOCALHOST:5163', 'mypc', 'mypc.local:5163', 'tv-pc.home.lan', 'TV-PC.home.lan.:8124']) {
      expect(check(host), host).toBe('ok');
    }
  });

  it('refuses any other name, a missing or malformed Host', () => {
    for (const host of [undefined, '', 'evil.example', 'evil.example:5163', 'localhost.evil.example', 'mypc.evil.example', '127.0.0.1.nip.io', 'user@127.0.0.1', '[::1', 'a b']) {
      expect(check(host), String(host)).toBe('forbidden_host');
    }
  });

  it('refuses a state-changing request from a foreign Origin, allows same-origin and Origin-less ones', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(check('127.0.0.1:5163', method, 'http://evil.example'), method).toBe('forbidden_origin');
      expect(check('127.0.0.1:5163', method, 'http://127.0.0.1:9999'), method).toBe('forbidden_origin');
      expect(check('127.0.0.1:5163', method, 'http://localhost:5163'), method).toBe('forbidden_origin');
      expect(check('127.0.0.1:5163', method, 'null'), method).toBe('forbidden_origin');
      expect(check('127.0.0.1:5163', method, 'http://127.0.0.1:5163'), method).toBe('ok');
      expect(check('127.0.0.1:5163', method), method).toBe('ok');
      expect(check('192.168.1.20', method, 'http://192.168.1.20'), method).toBe('ok');
      expect(check('[::1]:5163', method, 'http://[::1]:5163'), method).toBe('ok');
      expect(check('mypc.local:5163', method, 'http://mypc.local:5163'), method).toBe('ok');
      expect(check('[::1]:5163', method, 'http://[::2]:5163'), method).toBe('forbidden_origin');
    }
    // Reads are not state-changing; the Host rule alone guards them.
    expect(check('127.0.0.1:5163', 'GET', 'http://evil.example')).toBe('ok');
  });

  it("the machine's own names come from os.hostname()", () => {
    const short = os.hostname().toLowerCase().split('.')[0]!;
    expect(machineHostNames()).toEqual(expect.arrayContaining([short, `${short}.local`]));
  });
});

/** The security headers an answer carries (CSP, X-Robots-Tag, helmet's others), to compare a 403 with a 200. */
const SECURITY_HEADERS = ['content-security-policy', 'x-robots-tag', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'strict-transport-security'];
function securityHeaders(h: http.IncomingHttpHeaders): Record<string, unknown> {
  return Object.fromEntries(SECURITY_HEADERS.map((k) => [k, h[k]]));
}

describe('DNS rebinding: the energy bridge', () => {
  let dir: string;
  let service: EnergyService;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-hostcheck-'));
    service = createEnergyService({ dataDir: dir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' } }, { logger: silentLogger });
    await service.start();
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a foreign Host on reads, writes and the event stream', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/state', undefined],
      ['GET', '/api/settings', undefined],
      ['GET', '/events', undefined],
      ['GET', '/', undefined],
      ['PUT', '/api/settings', { battery: { capacityKwh: 5 } }],
    ] as const) {
      const res = await raw(service.url, method, url, { host: `rebind.evil.example:${new URL(service.url).port}` }, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden_host', message: expect.any(String) });
    }
    expect(service.settings.get().battery.capacityKwh).toBeNull();
  });

  it('answers 403 forbidden_host and forbidden_origin with the same security headers as every other answer', async () => {
    const port = new URL(service.url).port;
    const ok = await raw(service.url, 'GET', '/api/state', { host: `127.0.0.1:${port}` });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-security-policy']).toContain("default-src 'self'");
    const host = await raw(service.url, 'GET', '/api/state', { host: `rebind.evil.example:${port}` });
    const origin = await raw(service.url, 'PUT', '/api/settings', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, { battery: { capacityKwh: 7 } });
    expect([host.status, origin.status]).toEqual([403, 403]);
    expect(securityHeaders(host.headers)).toEqual(securityHeaders(ok.headers));
    expect(securityHeaders(origin.headers)).toEqual(securityHeaders(ok.headers));
  });

  it('accepts IP literals and localhost, and a name once the user adds it', async () => {
    const port = new URL(service.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, '10.0.0.7']) {
      expect((await raw(service.url, 'GET', '/api/state', { host })).status, host).toBe(200);
    }
    expect((await raw(service.url, 'GET', '/api/state', { host: `energy.home.lan:${port}` })).status).toBe(403);
    const put = await raw(service.url, 'PUT', '/api/settings', { host: `127.0.0.1:${port}` }, { general: { allowedHosts: ['Energy.Home.Lan'] } });
    expect(put.status).toBe(200);
    expect((await raw(service.url, 'GET', '/api/state', { host: `energy.home.lan:${port}` })).status).toBe(200);
    const bad = await raw(service.url, 'PUT', '/api/settings', { host: `127.0.0.1:${port}` }, { general: { allowedHosts: ['not a host/name'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid', field: 'general.allowedHosts.0' });
  });

  it('refuses a state-changing request from a foreign Origin and changes nothing', async () => {
    const port = new URL(service.url).port;
    const res = await raw(service.url, 'PUT', '/api/settings', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, { battery: { capacityKwh: 7 } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'forbidden_origin' });
    const passcode = await raw(service.url, 'POST', '/api/security/passcode', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, { passcode: '1234' });
    expect(passcode.status).toBe(403);
    expect(service.security.passcodes.isSet).toBe(false);
    expect(service.settings.get().battery.capacityKwh).toBeNull();
    // The bridge's own page (same origin) still saves.
    const own = await raw(service.url, 'PUT', '/api/settings', { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` }, { battery: { capacityKwh: 7 } });
    expect(own.status).toBe(200);
    expect(service.settings.get().battery.capacityKwh).toBe(7);
  });
});

describe('DNS rebinding: the recording sync', () => {
  let dir: string;
  let service: RecordingService;
  beforeAll(async () => {
    dir = tempDir();
    service = createRecordingService(testConfig(dir, 1), { logger: silentLogger });
    await service.start();
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a foreign Host, so a rebound page cannot even fetch a CSRF token', async () => {
    const port = new URL(service.url).port;
    for (const url of ['/api/csrf-token', '/api/settings', '/api/recordings', '/healthz']) {
      const res = await raw(service.url, 'GET', url, { host: `rebind.evil.example:${port}` });
      expect(res.status, url).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden_host' });
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await raw(service.url, 'GET', '/api/csrf-token', { host })).status, host).toBe(200);
    }
  });

  it('answers 403 forbidden_host and forbidden_origin with X-Robots-Tag, the CSP and the other security headers', async () => {
    const port = new URL(service.url).port;
    const ok = await raw(service.url, 'GET', '/api/settings', { host: `127.0.0.1:${port}` });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(ok.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-eval'");
    expect(ok.headers['strict-transport-security']).toBeUndefined();
    const host = await raw(service.url, 'GET', '/api/settings', { host: `rebind.evil.example:${port}` });
    const origin = await raw(service.url, 'PATCH', '/api/settings', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, { sync_cron: '0 * * * *' });
    expect([host.status, origin.status]).toEqual([403, 403]);
    expect(securityHeaders(host.headers)).toEqual(securityHeaders(ok.headers));
    expect(securityHeaders(origin.headers)).toEqual(securityHeaders(ok.headers));
  });

  it('refuses a foreign Origin on PATCH even with a valid CSRF pair; accepts a user-added name', async () => {
    const port = new URL(service.url).port;
    const api = new ApiClient(service.url);
    await api.refreshToken();
    const { cookie, token } = api as unknown as { cookie: string; token: string };
    const csrf = { cookie, 'x-csrf-token': token };
    const foreign = await raw(service.url, 'PATCH', '/api/settings', { ...csrf, host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, { sync_cron: '0 * * * *' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatchObject({ code: 'forbidden_origin' });
    expect(service.settings.get().sync_cron).toBe('*/30 * * * *');

    expect((await raw(service.url, 'GET', '/api/settings', { host: `tv.home.lan:${port}` })).status).toBe(403);
    const add = await api.patch('/api/settings', { allowed_hosts: 'tv.home.lan, recorder.local' });
    expect(add.status).toBe(200);
    expect((await raw(service.url, 'GET', '/api/settings', { host: `tv.home.lan:${port}` })).status).toBe(200);
    const own = await raw(service.url, 'PATCH', '/api/settings', { ...csrf, host: `tv.home.lan:${port}`, origin: `http://tv.home.lan:${port}` }, { sync_cron: '0 * * * *' });
    expect(own.status).toBe(200);
    const bad = await api.patch('/api/settings', { allowed_hosts: 'ok.lan, bad/name' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ field: 'allowed_hosts' });
  });
});
