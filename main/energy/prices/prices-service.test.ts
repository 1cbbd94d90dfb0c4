import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/testing/wait-for.js';
import { startEnergyHarness } from '../testing/harness.js';
import { startAmberSimulator, type AmberSimulator } from './amber-simulator.js';

/** The price source inside the energy bridge: settings, the outbound gate, routes, the token's binding. */
describe('prices in the energy bridge', () => {
  let h: Awaited<ReturnType<typeof startEnergyHarness>>;
  let amber: AmberSimulator;
  const put = (body: unknown) => fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    amber = await startAmberSimulator({ now: () => Date.now() });
    h = await startEnergyHarness();
  });
  afterAll(async () => {
    await h.stop();
    await amber.close();
  });

  it('Amber set in the settings: the sites route lists the account, the prices route shows the current interval', async () => {
    const sites = await (await fetch(`${h.service.url}/api/prices/amber/sites`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: amber.token }) })).json();
    // No Amber address is set yet that points here: the gate refuses loopback for an internet service.
    expect(sites).toMatchObject({ ok: false, sites: [] });
    const res = await put({ prices: { source: 'amber', amber: { token: amber.token, baseUrl: amber.url } } });
    expect(res.status).toBe(200);
    const listed = await (await fetch(`${h.service.url}/api/prices/amber/sites`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
    expect(listed.sites.map((s: { id: string }) => s.id)).toContain(amber.siteId);
    expect((await put({ prices: { amber: { siteId: amber.siteId } } })).status).toBe(200);
    const prices = await waitFor('prices', async () => {
      const p = (await (await fetch(`${h.service.url}/api/prices`)).json()) as { current: { importPerKwh: number } | null; intervals: unknown[]; stale: boolean; source: string };
      return p.current ? p : undefined;
    }, 10_000);
    expect(prices).toMatchObject({ source: 'amber', stale: false, lastError: null });
    expect(prices.intervals.length).toBeGreaterThan(200);
    const settings = await (await fetch(`${h.service.url}/api/settings`)).json();
    expect(settings.prices).toMatchObject({ source: 'amber', amberTokenSet: true, amber: { siteId: amber.siteId } });
    expect(JSON.stringify(settings)).not.toContain(amber.token);
  });

  it('moving the Amber address without a new token clears the token', async () => {
    const res = await put({ prices: { amber: { baseUrl: 'http://127.0.0.2:9/v1' } } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.cleared).toEqual(['prices.amber.token']);
    expect(body.settings.prices.amberTokenSet).toBe(false);
  });

  it('a bad setting is a 400 naming the field', async () => {
    const res = await put({ prices: { source: 'octopus' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('importProduct');
  });
});
