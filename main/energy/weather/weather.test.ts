import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { energySettingsSchema, type EnergySettings } from '../settings/energy-settings.js';
import { startFakeWeather, type FakeWeather } from './fake-server.js';
import { WeatherPoller, type WeatherReading } from './weather-poller.js';

describe('weather poller against the local fake', () => {
  let fake: FakeWeather;
  beforeEach(async () => {
    fake = await startFakeWeather({ temperature: 17.5, weatherCode: 61 });
  });
  afterEach(() => fake.close());

  const setup = (weather: Record<string, unknown>) => {
    const clock = createManualClock(Date.UTC(2026, 5, 1, 8));
    const settings: EnergySettings = energySettingsSchema.parse({ weather: { enabled: true, forecastUrl: fake.forecastUrl, geocodingUrl: fake.geocodingUrl, refreshMinutes: 10, ...weather } });
    const calls: Array<{ at: number; path: string }> = [];
    const readings: WeatherReading[] = [];
    const poller = new WeatherPoller({
      clock,
      logger: silentLogger,
      settings: () => settings,
      fetch: (u, i) => {
        calls.push({ at: clock.now() - Date.UTC(2026, 5, 1, 8), path: new URL(u).pathname });
        return fetch(u, i);
      },
      onReading: (r) => readings.push(r),
    });
    return { clock, calls, readings, poller };
  };

  it('a failure gets one immediate second try, then every 30 s until the first reading, then every 10 minutes', async () => {
    const { clock, calls, readings, poller } = setup({ latitude: -33.87, longitude: 151.21, location: 'Home' });
    fake.failNext(3);
    poller.restart();
    clock.advance(0);
    await vi.waitFor(() => expect(calls).toHaveLength(2), { timeout: 10_000 });
    await vi.waitFor(() => expect(poller.status.nextAttemptAt).toBe(Date.UTC(2026, 5, 1, 8) + 30_000), { timeout: 10_000 });
    expect(calls.map((c) => c.at)).toEqual([0, 0]);
    clock.advance(29_999);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(2);
    clock.advance(1); // t = 30 s: fails (3rd failure), the immediate second try answers
    await vi.waitFor(() => expect(readings).toHaveLength(1), { timeout: 10_000 });
    expect(calls.map((c) => c.at)).toEqual([0, 0, 30_000, 30_000]);
    expect(readings[0]).toMatchObject({ outdoorTemp: 17.5, weatherCode: 61, location: 'Home', latitude: -33.87, longitude: 151.21 });
    // After the first reading: a failing refresh waits the normal interval, not 30 s.
    fake.failNext(2);
    await vi.waitFor(() => expect(poller.status.nextAttemptAt).toBe(clock.now() + 600_000), { timeout: 10_000 });
    clock.advance(600_000);
    await vi.waitFor(() => expect(calls).toHaveLength(6), { timeout: 10_000 });
    await vi.waitFor(() => expect(poller.status.lastError).toMatch(/503/), { timeout: 10_000 });
    await vi.waitFor(() => expect(poller.status.nextAttemptAt).toBe(clock.now() + 600_000), { timeout: 10_000 });
    clock.advance(30_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(6);
    poller.stop();
  });

  it('a place name is looked up with the geocoding search; a failed lookup is retried every 30 s', async () => {
    const { clock, calls, readings, poller } = setup({ location: 'Melb' });
    fake.failNext(2); // both lookups of the first cycle
    poller.restart();
    clock.advance(0);
    await vi.waitFor(() => expect(poller.status.lastError).toMatch(/503/), { timeout: 10_000 });
    await vi.waitFor(() => expect(poller.status.nextAttemptAt).toBe(clock.now() + 30_000), { timeout: 10_000 });
    expect(calls.map((c) => c.path)).toEqual(['/v1/search', '/v1/search']);
    clock.advance(30_000);
    await vi.waitFor(() => expect(readings).toHaveLength(1), { timeout: 10_000 });
    expect(readings[0]).toMatchObject({ location: 'Melb', latitude: -37.814, longitude: 144.96332, outdoorTemp: 17.5 });
    const forecast = fake.requests.at(-1)!;
    expect(forecast.path).toBe('/v1/forecast');
    expect(forecast.query.get('current')).toBe('temperature_2m,weather_code');
    expect(forecast.query.get('temperature_unit')).toBe('celsius');
    poller.stop();
  });
});
