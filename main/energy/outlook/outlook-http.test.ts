import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoClock } from '../../core/clock.js';
import { SavingsStore } from '../savings/store.js';
import { startEnergyHarness } from '../testing/harness.js';
import { startFakeWeather } from '../weather/fake-server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The service, the simulated plant and the weather fake share a clock that starts at 11:00 UTC on a
 * June day and runs at real speed: the sun is up whatever the machine's time and zone.
 */
function middayHarness(fake: { forecastUrl: string; geocodingUrl: string }, clock: ReturnType<typeof createDemoClock>, dataDir?: string) {
  return startEnergyHarness({
    ...(dataDir ? { dataDir } : {}),
    sim: { now: clock.now, timeZone: 'UTC' },
    deps: { clock },
    env: { WEATHER_FORECAST_URL: fake.forecastUrl, WEATHER_GEOCODING_URL: fake.geocodingUrl },
  });
}
const START = Date.UTC(2026, 5, 21, 11, 0);

const hh = (h: number) => `${String(((h % 24) + 24) % 24).padStart(2, '0')}:00`;

describe('solar forecast and battery outlook against the weather fake', () => {
  it('fetches hourly irradiance through the outbound gate, scales it by the rated size, and the alert fires and clears with the outlook', async () => {
    // A constant 500 W/m² all day: 24 h × 0.5 kW/m² = 12 kWh/m² a day; a 0.1 kWp plant without
    // history is 0.1 × 0.8 = 0.08 kWh per kWh/m², so 0.96 kWh expected today and tomorrow (and
    // 0.04 kW at any hour, less than the simulated home's usual load: the battery only discharges).
    const clock = createDemoClock({ start: START, speed: 1 });
    const fake = await startFakeWeather({ irradiance: () => 500, now: clock.now });
    cleanups.push(() => fake.close());
    const h = await middayHarness(fake, clock);
    cleanups.push(() => h.stop());
    const call = (method: 'GET' | 'PUT', url: string, body?: unknown) => h.service.app.inject({ method, url, ...(body !== undefined ? { payload: body as object } : {}) });

    const hour = 11;
    // A peak window under way now (UTC), and a reserve of 100 %: the battery is at its reserve in the window.
    const put = await call('PUT', '/api/settings', {
      general: { timezone: 'UTC' },
      weather: { enabled: true, location: 'Berlin', latitude: 52.52, longitude: 13.41 },
      solar: { ratedKwp: 0.1 },
      battery: { reserveSoc: 100 },
      tariff: { importRate: 0.3, windows: [{ name: 'Peak', start: hh(hour), end: hh(hour + 2), importRate: 0.5 }] },
      alerts: [{ id: 'peak', name: 'Peak', trigger: 'peakNotCovered', settleSeconds: 0 }],
    });
    expect(put.statusCode, put.body).toBe(200);

    const snap = await until(
      async () => (await call('GET', '/api/snapshot')).json(),
      (s) => s.outlook?.solar.forecastAt !== null && s.outlook?.battery !== null && s.outlook !== undefined,
      'the forecast',
    );
    const req = fake.requests.find((r) => r.query.get('hourly') === 'shortwave_radiation')!;
    expect(req.query.get('timezone')).toBe('UTC');
    expect(req.query.get('latitude')).toBe('52.52');
    expect(snap.outlook.solar).toMatchObject({ basis: 'rated', kwhPerKwhM2: 0.08, ratedKwp: 0.1, error: null, today: { expectedKwh: 0.96 }, tomorrow: { expectedKwh: 0.96 } });
    expect(snap.outlook.battery).toMatchObject({ solarBasis: 'forecast', reserveSoc: 100 });
    // Beside it, the simulator's sun integrated from the polls so far.
    await until(async () => (await call('GET', '/api/outlook')).json().solar.today.actualKwh, (v: number | null) => v !== null && v > 0, 'production so far');
    expect(snap.outlook.battery.windows).toHaveLength(1);
    expect(snap.outlook.battery.windows[0]).toMatchObject({ name: 'Peak', covers: false });
    expect(snap.outlook.battery.windows[0].message).toMatch(/^reaches the reserve at \d\d:\d\d, \d+ h( \d+ min)? before the window ends$|^reaches the reserve at \d\d:\d\d, \d+ min before the window ends$/);

    const fired = await until(async () => (await call('GET', '/api/snapshot')).json().alerts, (a: Array<{ id: string; message: string }>) => a.some((x) => x.id === 'peak'), 'the alert');
    expect(fired[0]!.message).toMatch(/^The battery will not cover the peak window \(Peak: reaches the reserve at /);
    expect((await call('GET', '/api/outlook')).json().battery.coversPeak).toBe(false);

    // A huge battery with no reserve covers the window: the alert clears.
    expect((await call('PUT', '/api/settings', { battery: { reserveSoc: 0, capacityKwh: 1000 } })).statusCode).toBe(200);
    await until(async () => (await call('GET', '/api/snapshot')).json().alerts, (a: unknown[]) => a.length === 0, 'the alert to clear');
    const covered = (await call('GET', '/api/outlook')).json();
    expect(covered.battery.coversPeak).toBe(true);
    expect(covered.battery.windows[0].message).toBe(`covers ${hh(hour)}–${hh(hour + 2)}`);
  });

  it("fits the plant to the savings' closed days: 6 kWh a day under 12 kWh/m² is 0.5 kWh per kWh/m²", async () => {
    // Three full days before the start, as the savings feature stored them; the fake's 500 W/m² all
    // day is 12 kWh/m² on each of them too.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-test-'));
    fs.mkdirSync(path.join(dataDir, 'energy'), { recursive: true });
    const days = new SavingsStore(path.join(dataDir, 'energy', 'savings.db'));
    for (const date of ['2026-06-18', '2026-06-19', '2026-06-20']) {
      days.put({ date, solarKwh: 6, homeKwh: 8, importKwh: 2, exportKwh: 0, batteryChargeKwh: 0, batteryDischargeKwh: 0, importKwhWithoutBattery: 2, exportKwhWithoutBattery: 0, paid: null, paidWithoutBattery: null, paidWithoutSolar: null, currency: null, coveredMs: 86_400_000 });
    }
    days.close();
    const clock = createDemoClock({ start: START, speed: 1 });
    const fake = await startFakeWeather({ irradiance: () => 500, now: clock.now });
    cleanups.push(() => fake.close());
    const h = await middayHarness(fake, clock, dataDir);
    cleanups.push(() => h.stop());
    const put = await h.service.app.inject({ method: 'PUT', url: '/api/settings', payload: { general: { timezone: 'UTC' }, weather: { enabled: true, latitude: 52.52, longitude: 13.41 } } });
    expect(put.statusCode, put.body).toBe(200);
    const o = await until(async () => (await h.service.app.inject({ method: 'GET', url: '/api/outlook' })).json(), (v) => v.solar.forecastAt !== null, 'the forecast');
    expect(o.solar).toMatchObject({ basis: 'history', kwhPerKwhM2: 0.5, fitDays: 3, today: { expectedKwh: 6 }, yesterday: { date: '2026-06-20', actualKwh: 6 } });
  });

  it('a failing forecast says why and keeps the outlook going without sun', async () => {
    const clock = createDemoClock({ start: START, speed: 1 });
    const fake = await startFakeWeather({ irradiance: () => 500, now: clock.now });
    cleanups.push(() => fake.close());
    const h = await middayHarness(fake, clock);
    cleanups.push(() => h.stop());
    fake.failNext(1000);
    await h.service.app.inject({ method: 'PUT', url: '/api/settings', payload: { weather: { enabled: true, latitude: 52.52, longitude: 13.41 } } });
    const o = await until(async () => (await h.service.app.inject({ method: 'GET', url: '/api/outlook' })).json(), (v) => v.solar.error !== null, 'the error');
    expect(o.solar.error).toMatch(/HTTP 503/);
    expect(o.solar).toMatchObject({ basis: 'none', today: { expectedKwh: null } });
  });
});
