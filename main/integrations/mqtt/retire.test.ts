import { afterEach, describe, expect, it } from 'vitest';
import { startEnergyHarness, waitForState } from '../../energy/testing/harness.js';
import { startHarness } from '../../recordings/testing/harness.js';
import { mosquittoUnavailable, retained, startMosquitto, watch, type Broker } from './testing/mosquitto.js';

const skip = mosquittoUnavailable();
if (skip) console.warn(`MQTT retire tests skipped: ${skip}`);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function broker(): Promise<Broker> {
  const b = await startMosquitto();
  cleanups.push(() => b.close());
  return b;
}

const configsOf = (seen: Array<{ topic: string }>) => seen.filter((m) => m.topic.endsWith('/config'));

describe.skipIf(skip !== null)('no ghost entities in Home Assistant after a prefix change or a switch-off (real mosquitto)', () => {
  it('energy bridge: a new discovery and topic prefix leaves nothing retained under the old ones; off clears the configs and says offline', async () => {
    const b = await broker();
    const h = await startEnergyHarness({ env: { MQTT_URL: b.url } });
    cleanups.push(() => h.stop());
    await waitForState(h.service, (s) => s.connected);
    const first = await watch(b.url, ['homeassistant/#', 'home-lan-bridge/#']);
    cleanups.push(() => first.close());
    await first.waitFor((m) => m.topic.endsWith('/battery_soc/config'));
    await first.waitFor((m) => m.topic === 'home-lan-bridge/energy/state');
    await first.close();
    expect(configsOf(await retained(b.url, ['homeassistant/#'])).length).toBeGreaterThanOrEqual(15);

    const put = await fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mqtt: { discoveryPrefix: 'ha-two', topicPrefix: 'lan-two' } }) });
    expect(put.status).toBe(200);
    // The configs arrive under the new prefixes...
    const moved = await watch(b.url, ['ha-two/#', 'lan-two/#']);
    cleanups.push(() => moved.close());
    expect((await moved.waitFor((m) => m.topic === 'lan-two/energy/availability', 8000)).payload).toBe('online');
    const cfg = JSON.parse((await moved.waitFor((m) => /^ha-two\/sensor\/hlb_energy_[0-9a-f]+\/battery_soc\/config$/.test(m.topic))).payload);
    expect(cfg.state_topic).toBe('lan-two/energy/state');
    await moved.close();
    // ...and a fresh subscriber to the old ones gets nothing: no configs, no state, no availability.
    expect(await retained(b.url, ['homeassistant/#', 'home-lan-bridge/#'])).toEqual([]);

    // Off: the configs go (HA removes the entities), the availability says offline.
    const off = await fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mqtt: { enabled: false } }) });
    expect(off.status).toBe(200);
    const deadline = Date.now() + 5000;
    let left = await retained(b.url, ['ha-two/#', 'lan-two/#']);
    while (configsOf(left).length > 0 && Date.now() < deadline) left = await new Promise((r) => setTimeout(r, 100)).then(() => retained(b.url, ['ha-two/#', 'lan-two/#']));
    expect(configsOf(left)).toEqual([]);
    expect(left).toEqual([{ topic: 'lan-two/energy/availability', payload: 'offline' }]);
  });

  it('recording sync: a new discovery prefix leaves no retained config under the old one, and the Sync now button moves with it', async () => {
    const b = await broker();
    const h = await startHarness({ box: { shows: [] } });
    cleanups.push(() => h.cleanup());
    expect((await h.api.patch('/api/settings', { mqtt_url: b.url })).status).toBe(200);
    const first = await watch(b.url, ['homeassistant/#']);
    cleanups.push(() => first.close());
    await first.waitFor((m) => m.topic.endsWith('/sync_now/config'), 8000);
    await first.close();
    expect(configsOf(await retained(b.url, ['homeassistant/#'])).length).toBe(13); // the recording sync's 13 entities

    expect((await h.api.patch('/api/settings', { mqtt_discovery_prefix: 'ha-two', mqtt_topic_prefix: 'lan-two' })).status).toBe(200);
    const moved = await watch(b.url, ['ha-two/#', 'lan-two/#']);
    cleanups.push(() => moved.close());
    const button = JSON.parse((await moved.waitFor((m) => m.topic.startsWith('ha-two/button/') && m.topic.endsWith('/sync_now/config'), 8000)).payload);
    expect(button.command_topic).toBe('lan-two/recordings/sync_now/press');
    await moved.close();
    expect(await retained(b.url, ['homeassistant/#', 'home-lan-bridge/#'])).toEqual([]);

    expect((await h.api.patch('/api/settings', { mqtt_enabled: false })).status).toBe(200);
    const deadline = Date.now() + 5000;
    let left = await retained(b.url, ['ha-two/#', 'lan-two/#']);
    while (configsOf(left).length > 0 && Date.now() < deadline) left = await new Promise((r) => setTimeout(r, 100)).then(() => retained(b.url, ['ha-two/#', 'lan-two/#']));
    expect(configsOf(left)).toEqual([]);
    expect(left.find((m) => m.topic === 'lan-two/recordings/availability')?.payload).toBe('offline');
  });
});
