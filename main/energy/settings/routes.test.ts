import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, systemClock, type Clock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyService } from '../index.js';
import type { LiveState } from '../live-state.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(env: Record<string, string> = {}, clock: Clock = createManualClock()) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-settings-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // Gateway on loopback with nothing listening unless a test passes a simulator's address.
  const service = createEnergyService(
    { dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9', SERVER_PORT: '5999', ...env } },
    { logger: silentLogger, clock },
  );
  await service.start();
  cleanups.push(() => service.stop());
  const file = path.join(dataDir, 'energy', 'settings.json');
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}) =>
    service.app.inject({ method, url, ...(body !== undefined ? { payload: typeof body === 'string' ? body : (body as object) } : {}), headers });
  return { service, call, file };
}

function waitForState(service: EnergyService, pred: (s: LiveState) => boolean, what: string): Promise<LiveState> {
  return new Promise((resolve, reject) => {
    if (pred(service.state.get())) return resolve(service.state.get());
    const timer = setTimeout(() => {
      off();
      reject(new Error(`${what}: not reached; last ${JSON.stringify(service.state.get().gateway)}`));
    }, 15_000);
    const off = service.state.subscribe((s) => {
      if (!pred(s)) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });
}

describe('settings API', () => {
  it('seeds from the environment on first start and publishes a JSON Schema with each field’s applies flag', async () => {
    const { call } = await start({ SMART_HOME_AUTH_TOKEN: 'seeded-token-123456' });
    const res = await call('GET', '/api/settings');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      passcodeSet: false,
      unlocked: true,
      general: { serverPort: 5999 },
      gateway: { host: '127.0.0.5', port: 9 },
      polling: { intervalMs: 5000 },
      history: { retentionDays: 7 },
      tariff: { importRate: 0, feedInRate: 0, windows: [] },
      alerts: [],
      weather: { enabled: false, forecastUrl: 'https://api.open-meteo.com/v1/forecast' },
      homekit: { enabled: false, bridgeName: 'Energy Bridge', port: 51827, bind: [] },
      smartHome: { enabled: true, tokenSet: true },
    });
    expect(body.homekit.pin).toMatch(/^\d{3}-\d{2}-\d{3}$/);
    expect(res.body).not.toContain('seeded-token-123456');
    expect(body.smartHome).not.toHaveProperty('authToken');

    const schema = (await call('GET', '/api/settings/schema')).json();
    expect(schema.properties.gateway.properties.port).toMatchObject({ applies: 'live', type: 'integer', minimum: 1, maximum: 65535 });
    expect(schema.properties.general.properties.serverPort.applies).toBe('restart');
    expect(schema.properties.homekit.properties.pin).toMatchObject({ applies: 'restart', pattern: expect.any(String) });
    expect(schema.properties.homekit.properties.pin).not.toHaveProperty('default');
    expect(schema.properties.alerts.applies).toBe('live');
    expect(schema.properties.alerts.items.properties.trigger.enum).toContain('gatewayOffline');
    expect(JSON.stringify(schema)).not.toContain(body.homekit.pin);
  });

  it('PUT deep-merges a partial update, replaces arrays whole, writes the file and lists restart-only changes', async () => {
    const { call, file } = await start();
    const first = await call('PUT', '/api/settings', {
      gateway: { host: '127.0.0.6' },
      alerts: [
        { id: 'low', name: 'Low battery', trigger: 'batterySoc', condition: 'atOrBelow', threshold: 15, settleSeconds: 120, webhookUrl: 'http://127.0.0.1:9/a' },
        { id: 'export', name: 'Exporting', trigger: 'gridExport', condition: 'atOrAbove', threshold: 3000 },
      ],
      general: { serverPort: 6001 },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().restartRequired).toEqual(['general.serverPort']);
    const s = first.json().settings;
    expect(s.gateway).toMatchObject({ host: '127.0.0.6', port: 9, timeoutMs: 1000 });
    expect(s.alerts[1]).toMatchObject({ id: 'export', settleSeconds: 60, webhookUrl: '', enabled: true });

    const second = await call('PUT', '/api/settings', { alerts: [{ id: 'only', name: 'Only one' }], homekit: { bridgeName: 'Garage' } });
    expect(second.json().settings.alerts.map((a: { id: string }) => a.id)).toEqual(['only']);
    expect(second.json().restartRequired).toEqual(['general.serverPort', 'homekit.bridgeName']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ gateway: { host: '127.0.0.6' }, homekit: { bridgeName: 'Garage' }, alerts: [{ id: 'only' }] });
    // Changing a restart field back to what is running clears its mark.
    expect((await call('PUT', '/api/settings', { general: { serverPort: 5999 } })).json().restartRequired).toEqual(['homekit.bridgeName']);

    // Fields echoed from GET (passcodeSet, unlocked, tokenSet) are read-only and ignored.
    const echoed = (await call('GET', '/api/settings')).json();
    const round = await call('PUT', '/api/settings', echoed);
    expect(round.statusCode).toBe(200);
    expect(round.json().settings).toEqual(echoed);
  });

  it('keeps the smart-home token write-only', async () => {
    const { call, file } = await start();
    const res = await call('PUT', '/api/settings', { smartHome: { enabled: true, authToken: 'a-long-secret-token-42' } });
    expect(res.json().settings.smartHome).toEqual({ enabled: true, tokenSet: true });
    expect(res.body).not.toContain('a-long-secret-token-42');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).smartHome.authToken).toBe('a-long-secret-token-42');
    // A later update that does not name the token keeps it.
    await call('PUT', '/api/settings', { smartHome: { enabled: false } });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).smartHome).toEqual({ enabled: false, authToken: 'a-long-secret-token-42' });
  });

  it('rejects invalid settings with a 400 naming the field and leaves the file byte-for-byte unchanged', async () => {
    const { call, file } = await start();
    const before = fs.readFileSync(file);
    const cases: Array<[unknown, string]> = [
      [{ gateway: { port: '502' } }, 'gateway.port'],
      [{ gateway: { port: 70000 } }, 'gateway.port'],
      [{ polling: { intervalMs: 500 } }, 'polling.intervalMs'],
      [{ gateway: { inverterUnitFrom: 9, inverterUnitTo: 3 } }, 'gateway.inverterUnitTo'],
      [{ gateway: { bogus: 1 } }, 'gateway.bogus'],
      [{ bogus: {} }, 'bogus'],
      [{ gateway: 'x' }, 'gateway'],
      [{ history: { retentionDays: 0 } }, 'history.retentionDays'],
      [{ general: { timezone: 'Mars/Olympus' } }, 'general.timezone'],
      [{ homekit: { pin: '12345678' } }, 'homekit.pin'],
      [{ homekit: { pin: '123-45-678' } }, 'homekit.pin'],
      [{ alerts: [{ id: 'a', trigger: 'moonPhase' }] }, 'alerts.0.trigger'],
      [{ alerts: [{ id: 'a', webhookUrl: 'ftp://x' }] }, 'alerts.0.webhookUrl'],
      [{ alerts: [{ id: 'a' }, { id: 'a' }] }, 'alerts'],
      [{ tariff: { windows: [{ start: '25:00' }] } }, 'tariff.windows.0.start'],
      [{ weather: { latitude: 91 } }, 'weather.latitude'],
      [[1, 2], 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await call('PUT', '/api/settings', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toMatchObject({ code: 'invalid', field });
    }
    const huge = await call('PUT', '/api/settings', JSON.stringify({ names: { smartLoads: { '1': 'x'.repeat(1024 * 1024) } } }), { 'content-type': 'application/json' });
    expect(huge.statusCode).toBe(400);
    const notJson = await call('PUT', '/api/settings', '{"gateway":', { 'content-type': 'application/json' });
    expect(notJson.statusCode).toBe(400);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('reset returns to the environment seeds but keeps the passcode and the HomeKit PIN', async () => {
    const { call } = await start();
    const pin = (await call('GET', '/api/settings')).json().homekit.pin;
    await call('PUT', '/api/settings', { gateway: { host: '127.0.0.6', port: 1502 }, tariff: { importRate: 0.3 }, general: { serverPort: 6001 } });
    const { token } = (await call('POST', '/api/security/passcode', { passcode: '2468' })).json();
    const res = await call('POST', '/api/settings/reset', {}, { authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().restartRequired).toEqual([]);
    expect(res.json().settings).toMatchObject({ passcodeSet: true, unlocked: true, gateway: { host: '127.0.0.5', port: 9 }, tariff: { importRate: 0 }, homekit: { pin } });
    expect((await call('POST', '/api/unlock', { passcode: '2468' })).statusCode).toBe(200);
  });
});

describe('live settings', () => {
  let sims: GatewaySimulator[] = [];
  afterEach(async () => {
    for (const s of sims) await s.close();
    sims = [];
  });

  it('a PUT that changes the gateway port makes the poller reconnect to the other gateway', async () => {
    const a = await startGatewaySimulator({ firmware: 'V2.9', initialSoc: 20 });
    const b = await startGatewaySimulator({ firmware: 'V1.8', initialSoc: 90 });
    sims = [a, b];
    const { service, call } = await start({ GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(a.port), POLL_INTERVAL_MS: '1000' }, systemClock);
    const onA = await waitForState(service, (s) => s.connected && s.gateway.firmware === 'V2.9', 'first gateway');
    expect(onA.battery.soc).toBeCloseTo(20, 0);

    const res = await call('PUT', '/api/settings', { gateway: { port: b.port } });
    expect(res.statusCode).toBe(200);
    expect(res.json().restartRequired).toEqual([]);
    const onB = await waitForState(service, (s) => s.connected && s.gateway.port === b.port && s.gateway.firmware === 'V1.8', 'second gateway');
    expect(onB.battery.soc).toBeCloseTo(90, 0);
    expect(onB.battery.soh).toBeNull();
  });
});
