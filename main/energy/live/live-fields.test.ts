import { afterEach, describe, expect, it } from 'vitest';
import { startFakeWeather } from '../weather/fake-server.js';
import { startEnergyHarness, waitForState } from '../testing/harness.js';

/**
 * The live state (`GET /api/state`, the SSE state event) is the core's fields plus the ones each
 * feature declares in its folder (weather/, alerts/, outlook/ `live-fields.ts`), and every state
 * the service publishes is a new object: nobody writes into one already handed out.
 */
type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The spec's shape of `GET /api/state` (docs/energy-api.md), with the features' fields. */
const STATE_KEYS = ['alerts', 'battery', 'connected', 'energy', 'gateway', 'inverters', 'lastError', 'lastUpdated', 'outlook', 'pollIntervalMs', 'power', 'smartLoads', 'storageError', 'weather'];

const getState = async (h: Harness) => (await fetch(`${h.service.url}/api/state`)).json() as Promise<Record<string, unknown>>;

describe('live state: the core and the features\' declared fields', () => {
  it('has the weather (null while off), the active alerts ([]) and the outlook, as before the move', async () => {
    const h = await startEnergyHarness();
    cleanups.push(() => h.stop());
    await waitForState(h.service, (s) => s.connected && s.lastUpdated !== null);
    const state = await getState(h);
    expect(Object.keys(state).sort()).toEqual(STATE_KEYS);
    expect(state.weather).toBeNull();
    expect(state.alerts).toEqual([]);
    expect(state.outlook).toEqual({ coversPeak: expect.toBeOneOf([true, false, null]), message: expect.toBeOneOf([expect.any(String), null]) });
  });

  it('carries the weather reading and a firing alert, and never changes a state it already published', async () => {
    const weather = await startFakeWeather();
    cleanups.push(() => weather.close());
    const h = await startEnergyHarness({ env: { WEATHER_FORECAST_URL: weather.forecastUrl, WEATHER_GEOCODING_URL: weather.geocodingUrl } });
    cleanups.push(() => h.stop());
    // Each published state with its JSON when it went out: read again at the end, it must be the same.
    const published: Array<{ state: object; json: string }> = [];
    const off = h.service.state.subscribe((s) => published.push({ state: s, json: JSON.stringify(s) }));
    cleanups.push(async () => off());
    h.sim.plant.soc = 9;
    const put = await fetch(`${h.service.url}/api/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        weather: { enabled: true, location: 'Sydney' },
        alerts: [{ id: 'low', name: 'Battery low', trigger: 'batterySoc', condition: 'atOrBelow', threshold: 12, settleSeconds: 0 }],
      }),
    });
    expect(put.status).toBe(200);
    await waitForState(h.service, (s) => s.weather !== null && s.alerts.length === 1);
    const state = await getState(h);
    expect(Object.keys(state).sort()).toEqual(STATE_KEYS);
    expect(state.weather).toMatchObject({ outdoorTemp: expect.any(Number), location: 'Sydney', updatedAt: expect.any(Number) });
    expect(state.alerts).toEqual([expect.objectContaining({ id: 'low', name: 'Battery low', trigger: 'batterySoc' })]);
    // The alert clears (a poll's patch and the alert timer both publish), the weather turns off.
    h.sim.plant.soc = 60;
    await waitForState(h.service, (s) => s.alerts.length === 0);
    await fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ weather: { enabled: false } }) });
    await waitForState(h.service, (s) => s.weather === null);
    expect(published.length).toBeGreaterThan(3);
    for (const p of published) expect(JSON.stringify(p.state)).toBe(p.json);
    expect(new Set(published.map((p) => p.state)).size).toBe(published.length);
  });
});
