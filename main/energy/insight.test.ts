import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock, type Clock } from '../core/clock.js';
import type { EnergyLiveState as LiveState } from './published.js';
import { nextPoll, startEnergyHarness, waitForState } from './testing/harness.js';
import type { GatewaySimulatorOptions } from './simulator/gateway-simulator.js';
import { startFakeWeather } from './weather/fake-server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function receiver(statuses: number[] = []) {
  const got: Array<{ event: string; alert: { id: string; name: string; message: string } }> = [];
  const server = http.createServer((req, res) => {
    let d = '';
    req.on('data', (c) => (d += c));
    req.on('end', () => {
      got.push(JSON.parse(d));
      res.statusCode = statuses.shift() ?? 200;
      res.end('thanks');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

async function setup(sim?: GatewaySimulatorOptions, clock?: Clock) {
  const fake = await startFakeWeather({ temperature: 23.5, weatherCode: 3 });
  cleanups.push(() => fake.close());
  const h = await startEnergyHarness({ sim, env: { WEATHER_FORECAST_URL: fake.forecastUrl, WEATHER_GEOCODING_URL: fake.geocodingUrl }, ...(clock ? { deps: { clock } } : {}) });
  cleanups.push(() => h.stop());
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => h.service.app.inject({ method, url, ...(body !== undefined ? { payload: body as object } : {}) });
  return { ...h, fake, call };
}

/** On a manual clock: polls one interval (1 s) at a time until a published state satisfies `pred` (at most 5 polls). */
async function pollsUntil(service: Parameters<typeof nextPoll>[0], clock: ReturnType<typeof createManualClock>, pred: (s: LiveState) => boolean): Promise<LiveState> {
  for (let i = 0; i < 5; i++) {
    const s = await nextPoll(service, clock, 1000);
    if (pred(s)) return s;
  }
  throw new Error(`no poll met the condition; last: ${JSON.stringify(service.state.get()).slice(0, 300)}`);
}

describe('energy insight over HTTP', () => {
  it('bad input is a 400 naming the field and nothing is saved', async () => {
    const { call } = await setup();
    const before = (await call('GET', '/api/settings')).json();
    const cases: Array<[string, string, unknown, string]> = [
      ['PUT', '/api/settings', { tariff: { windows: [{ name: 'A', start: '07:00', end: '10:00' }, { name: 'B', start: '09:30', end: '12:00' }] } }, 'tariff.windows.1.start'],
      ['PUT', '/api/settings', { tariff: { importRate: -0.2 } }, 'tariff.importRate'],
      ['PUT', '/api/settings', { tariff: { superExport: { enabled: true, start: '18:00', end: '18:00' } } }, 'tariff.superExport.end'],
      ['PUT', '/api/settings', { alerts: [{ name: 'X', trigger: 'moonPhase' }] }, 'alerts.0.trigger'],
      ['PUT', '/api/settings', { alerts: [{ name: 'X', webhookUrl: 'ftp://127.0.0.1/x' }] }, 'alerts.0.webhookUrl'],
      ['PUT', '/api/settings', { alerts: [{ name: 'X', trigger: 'batterySoc', unit: 'kW' }] }, 'alerts.0.unit'],
      ['PUT', '/api/settings', { alerts: Array.from({ length: 25 }, (_, i) => ({ id: `a${i}` })) }, 'alerts'],
      ['PUT', '/api/settings', { weather: { latitude: 91 } }, 'weather.latitude'],
      ['POST', '/api/test/weather', { latitude: 91, longitude: 10 }, 'latitude'],
      ['POST', '/api/test/alert', { url: 'file:///etc/passwd' }, 'url'],
      ['GET', '/api/history/daily?from=2026-13-01', undefined, 'from'],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await call(method as 'PUT', url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid', field });
    }
    expect((await call('GET', '/api/settings')).json()).toEqual(before);
  });

  it('with a passcode set, the test and place-search routes need a session; the status reads stay open', async () => {
    const { call } = await setup();
    expect((await call('POST', '/api/security/passcode', { passcode: '2468' })).statusCode).toBeLessThan(300);
    for (const [method, url, body] of [
      ['POST', '/api/test/weather', { location: 'Sydney' }],
      ['POST', '/api/test/alert', { url: 'http://127.0.0.1:9/x' }],
      ['GET', '/api/weather/places?name=Syd', undefined],
    ] as const) {
      const res = await call(method, url, body);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error.code).toBe('locked');
    }
    expect((await call('GET', '/api/alerts')).statusCode).toBe(200);
    expect((await call('GET', '/api/weather')).statusCode).toBe(200);
    expect((await call('GET', '/api/history/daily')).statusCode).toBe(200);
  });

  it('a saved tariff shows in the snapshot after the next polls, priced at the configured rates', async () => {
    // No sun and an empty battery: the home draws from the grid whatever the hour the test runs at.
    const clock = createManualClock();
    const { call, service, sim } = await setup({ pvPeakW: 0, thirdPartyPeakW: 0 }, clock);
    sim.plant.soc = 0;
    sim.plantChanged();
    await nextPoll(service, clock, 0);
    expect((await call('GET', '/api/snapshot')).json()).not.toHaveProperty('tariff');
    expect((await call('PUT', '/api/settings', { general: { currency: 'EUR' }, tariff: { importRate: 0.3, feedInRate: 0.08, dailySupplyCharge: 0.9 } })).statusCode).toBe(200);
    await pollsUntil(service, clock, (s) => (s.power.grid ?? 0) > 0);
    // Each poll's reading holds until the next one: the cost grows from the poll after.
    let snap = (await call('GET', '/api/snapshot')).json();
    for (let i = 0; i < 5 && !(snap.tariff.today.importCost > 0); i++) {
      await nextPoll(service, clock, 1000);
      snap = (await call('GET', '/api/snapshot')).json();
    }
    expect(snap.tariff.today.importCost).toBeGreaterThan(0);
    const grid = snap.power.grid as number;
    expect(snap.tariff).toMatchObject({ currency: 'EUR', today: { supply: 0.9 } });
    const expected = grid >= 0 ? -(grid / 1000) * 0.3 : (-grid / 1000) * 0.08;
    expect(snap.tariff.netPerHour).toBeCloseTo(expected, 3);
    const t = snap.tariff.today;
    expect(t.net).toBeCloseTo(t.feedIn + t.superExportCredit + t.zeroDrawCredit - t.importCost - t.supply, 3);
  });

  it('an alert fires while the SOC is under its threshold, clears after, and POSTs both to its webhook', async () => {
    // Polls and the webhook's retry wait run on a manual clock, moved on instead of waited out.
    const clock = createManualClock();
    const { call, service, sim } = await setup(undefined, clock);
    const pollUntil = (pred: (s: LiveState) => boolean) => pollsUntil(service, clock, pred);
    await nextPoll(service, clock, 0);
    const hook = await receiver([500]);
    sim.plant.soc = 9;
    sim.plantChanged();
    const put = await call('PUT', '/api/settings', { alerts: [{ id: 'low', name: 'Battery low', trigger: 'batterySoc', condition: 'atOrBelow', threshold: 12, settleSeconds: 0, webhookUrl: hook.url }] });
    expect(put.statusCode).toBe(200);
    const fired = await pollUntil((s) => s.alerts.length === 1);
    expect(fired.alerts[0]).toMatchObject({ id: 'low', name: 'Battery low', trigger: 'batterySoc', condition: { comparison: 'atOrBelow', threshold: 12, unit: '%' } });
    expect((await call('GET', '/api/snapshot')).json().alerts).toEqual((await call('GET', '/api/state')).json().alerts);
    // The receiver answered 500 first: the delivery is retried after 2 s and then succeeds.
    await vi.waitFor(async () => expect((await call('GET', '/api/alerts')).json().rules[0].lastDelivery).toMatchObject({ ok: false, status: 500, attempts: 1 }), { timeout: 5000 });
    clock.advance(2000);
    await vi.waitFor(() => expect(hook.got.map((g) => g.event)).toEqual(['fired', 'fired']), { timeout: 15_000 });
    await vi.waitFor(async () => expect((await call('GET', '/api/alerts')).json().rules[0]).toMatchObject({ id: 'low', active: true, lastDelivery: { ok: true, status: 200, attempts: 2, event: 'fired' } }), { timeout: 5000 });
    sim.plant.soc = 60;
    sim.plantChanged();
    await pollUntil((s) => s.alerts.length === 0);
    await vi.waitFor(() => expect(hook.got.at(-1)).toMatchObject({ event: 'cleared', alert: { id: 'low', name: 'Battery low' } }), { timeout: 15_000 });

    const test = await call('POST', '/api/test/alert', { id: 'low' });
    expect(test.json()).toMatchObject({ ok: true, status: 200, event: 'test' });
    // The receiver's answer ("thanks") is never returned: only its status.
    expect(JSON.stringify(test.json())).not.toContain('thanks');
    expect(hook.got.at(-1)!.event).toBe('test');
  });

  it('weather from the local fake: by place name in the live state, and probed by POST /api/test/weather', async () => {
    const { call, service } = await setup();
    expect((await call('PUT', '/api/settings', { weather: { enabled: true, location: 'Sydney' } })).statusCode).toBe(200);
    const s = await waitForState(service, (st) => st.weather !== null);
    expect(s.weather).toMatchObject({ outdoorTemp: 23.5, weatherCode: 3, location: 'Sydney', latitude: -33.86785, longitude: 151.20732 });
    expect((await call('GET', '/api/snapshot')).json().weather).toEqual({ outdoorTemp: 23.5, weatherCode: 3, location: 'Sydney', latitude: -33.86785, longitude: 151.20732 });
    const probe = (await call('POST', '/api/test/weather', { location: 'Berl' })).json();
    expect(probe).toMatchObject({ ok: true, outdoorTemp: 23.5, location: 'Berlin', latitude: 52.52437 });
    const nowhere = (await call('POST', '/api/test/weather', { location: 'Atlantis' })).json();
    expect(nowhere).toMatchObject({ ok: false, error: expect.stringContaining('Atlantis') });
    const places = (await call('GET', '/api/weather/places?name=Mel')).json();
    expect(places.places[0]).toMatchObject({ name: 'Melbourne', detail: 'Victoria, Australia' });
    await call('PUT', '/api/settings', { weather: { enabled: false } });
    expect(service.state.get().weather).toBeNull();
  });
});
