import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../core/testing/wait-for.js';
import { mosquittoUnavailable, startMosquitto, watch } from '../../integrations/mqtt/testing/mosquitto.js';
import type { Snapshot } from '../published.js';
import { startEnergyHarness } from '../testing/harness.js';
import { startAmberSimulator } from './amber-simulator.js';

const PROMTOOL = '/usr/bin/promtool';
const skip = mosquittoUnavailable() ?? (fs.existsSync(PROMTOOL) ? null : `${PROMTOOL} not found`);
if (skip) console.warn(`price MQTT/metrics test skipped: ${skip}`);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(skip !== null)('live prices on MQTT and in the metrics', () => {
  it('Home Assistant gets monetary price sensors in AUD/kWh and a spike sensor; /metrics has the price gauges; promtool accepts it', async () => {
    const amber = await startAmberSimulator({ now: () => Date.now() });
    cleanups.push(() => amber.close());
    const broker = await startMosquitto();
    cleanups.push(() => broker.close());
    const h = await startEnergyHarness({ env: { MQTT_URL: broker.url, METRICS_ENABLED: '1', PRICE_SOURCE: 'amber', AMBER_API_TOKEN: amber.token, AMBER_SITE_ID: amber.siteId, AMBER_API_URL: amber.url } });
    cleanups.push(() => h.stop());
    // A state send each second, not every 10 s (the default): the state with the prices comes within a second.
    const put = await fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mqtt: { publishIntervalSeconds: 1 } }) });
    expect(put.status).toBe(200);
    const snap = await waitFor('prices in the snapshot', async () => {
      const s = (await (await fetch(`${h.service.url}/api/snapshot`)).json()) as Snapshot;
      return s.prices?.current ? s : undefined;
    }, 10_000);
    const current = snap.prices!.current!;

    const sub = await watch(broker.url, ['homeassistant/#', 'home-lan-bridge/#']);
    cleanups.push(() => sub.close());
    const cfg = async (component: string, key: string) => JSON.parse((await sub.waitFor((m) => m.topic.startsWith(`homeassistant/${component}/`) && m.topic.endsWith(`/${key}/config`), 5000)).payload);
    expect(await cfg('sensor', 'import_price')).toMatchObject({ device_class: 'monetary', unit_of_measurement: 'AUD/kWh' });
    const feedIn = await cfg('sensor', 'feed_in_price');
    expect(feedIn).toMatchObject({ device_class: 'monetary', unit_of_measurement: 'AUD/kWh' });
    // Home Assistant refuses a monetary sensor with state_class measurement.
    expect(feedIn.state_class).toBeUndefined();
    expect(await cfg('binary_sensor', 'price_spike')).toMatchObject({ name: 'Price spike' });
    const state = await sub.waitFor((m) => m.topic === 'home-lan-bridge/energy/state' && JSON.parse(m.payload).import_price !== null, 5000);
    const v = JSON.parse(state.payload);
    expect(v.import_price).toBe(current.importPerKwh);
    expect(v.feed_in_price).toBe(current.feedInPerKwh);
    expect(v.price_spike).toBe(current.spike);

    const text = await (await fetch(`${h.service.url}/metrics`)).text();
    const line = (series: string) => text.split('\n').find((l) => l.startsWith(`${series} `));
    expect(Number(line('hlb_energy_import_price{currency="AUD"}')!.split(' ')[1])).toBe(current.importPerKwh);
    expect(Number(line('hlb_energy_feed_in_price{currency="AUD"}')!.split(' ')[1])).toBe(current.feedInPerKwh);
    expect(line('hlb_energy_prices_stale')).toBe('hlb_energy_prices_stale 0');
    expect(line('hlb_energy_price_spike')).toBe(`hlb_energy_price_spike ${current.spike ? 1 : 0}`);
    const checked = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${checked.stdout}${checked.stderr}`).toBe('');
    expect(checked.status).toBe(0);
  });
});
