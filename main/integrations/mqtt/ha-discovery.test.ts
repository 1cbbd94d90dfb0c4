import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEnergyHarness, waitForState } from '../../energy/testing/harness.js';
import { startGatewaySimulator } from '../../energy/simulator/gateway-simulator.js';
import { startHarness } from '../../recordings/testing/harness.js';
import { installId } from './identity.js';
import { mosquittoUnavailable, retained, startMosquitto, watch, type Broker } from './testing/mosquitto.js';

const skip = mosquittoUnavailable();
if (skip) console.warn(`Home Assistant discovery tests skipped: ${skip}`);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function broker(): Promise<Broker> {
  const b = await startMosquitto();
  cleanups.push(() => b.close());
  return b;
}

/** What Home Assistant, subscribing now, gets from the broker's retained store under `topics`, by topic. */
const retainedByTopic = async (url: string, topics: string[]) => new Map((await retained(url, topics)).map((m) => [m.topic, m.payload]));

// The gateway's readings: what Home Assistant must not show as current while the gateway is down.
const READINGS = ['battery_soc', 'battery_soh', 'solar_power', 'home_power', 'grid_power', 'battery_power', 'lifetime_pv', 'lifetime_grid_import', 'lifetime_grid_export'];

describe.skipIf(skip !== null)('the energy bridge as Home Assistant discovers it today (real mosquitto)', () => {
  it('after an upgrade: default_entity_id and an origin, and no entity left over from the earlier version', async () => {
    const b = await broker();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-ha-'));
    const id = installId('energy', dataDir);
    // What an earlier version left retained: configs with object_id, one for an entity this version
    // no longer has, and one whose unique id was spelled differently (all on this device's node).
    const seed = await watch(b.url, ['nothing/here']);
    const old = (key: string, component = 'sensor', uniqueId = `${id}_${key}`) => ({
      topic: `homeassistant/${component}/${id}/${key}/config`,
      payload: JSON.stringify({ name: key, unique_id: uniqueId, object_id: uniqueId, state_topic: 'home-lan-bridge/energy/state', availability_topic: 'home-lan-bridge/energy/availability' }),
    });
    const earlier = [old('battery_soc'), old('lifetime_pv'), old('gateway_connected', 'binary_sensor'), old('inverter_temperature'), old('grid_power', 'sensor', `energy_${id}_grid_power`)];
    for (const m of earlier) await seed.client.publishAsync(m.topic, m.payload, { retain: true, qos: 1 });
    // Another program's device under the same prefix is none of our business.
    await seed.client.publishAsync('homeassistant/sensor/other_device/temp/config', JSON.stringify({ unique_id: 'other_temp' }), { retain: true, qos: 1 });
    await seed.close();

    const h = await startEnergyHarness({ dataDir, env: { MQTT_URL: b.url } });
    cleanups.push(() => h.stop());
    await waitForState(h.service, (s) => s.connected);
    // The retired entity is emptied (Home Assistant removes it) and the re-spelt one replaced:
    // what a Home Assistant starting now would get, once the bridge has been connected a moment.
    const settled = (m: Map<string, string>) => ![...m.keys()].some((t) => t.endsWith('/inverter_temperature/config')) && m.get(`homeassistant/sensor/${id}/grid_power/config`)?.includes(`"unique_id":"${id}_grid_power"`);
    const deadline = Date.now() + 8000;
    let store = await retainedByTopic(b.url, ['homeassistant/#']);
    while (!settled(store) && Date.now() < deadline) store = await new Promise((r) => setTimeout(r, 100)).then(() => retainedByTopic(b.url, ['homeassistant/#']));
    expect(store.get('homeassistant/sensor/other_device/temp/config')).toBeDefined();
    const ours = [...store].filter(([t]) => t.includes(`/${id}/`));
    expect(ours.map(([t]) => t.split('/')[3])).not.toContain('inverter_temperature');
    expect(ours.length).toBeGreaterThanOrEqual(19);
    // One config per unique id: no duplicate entity.
    const configs = ours.map(([topic, payload]) => ({ topic, c: JSON.parse(payload) as Record<string, any> })); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(new Set(configs.map(({ c }) => c.unique_id)).size).toBe(configs.length);
    for (const { topic, c } of configs) {
      const [, component, , key] = topic.split('/');
      expect(c.unique_id, topic).toBe(`${id}_${key}`);
      expect(c.default_entity_id, topic).toBe(`${component}.${id}_${key}`);
      expect(c, topic).not.toHaveProperty('object_id');
      expect(c.o, topic).toMatchObject({ name: 'Home LAN Bridge', sw: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    }
  });

  it('readings are unavailable while the gateway does not answer, and available again once it does', async () => {
    const b = await broker();
    const h = await startEnergyHarness({ env: { MQTT_URL: b.url } });
    cleanups.push(() => h.stop());
    await waitForState(h.service, (s) => s.connected);
    const sub = await watch(b.url, ['homeassistant/+/+/+/config', 'home-lan-bridge/energy/#']);
    cleanups.push(() => sub.close());
    for (const key of READINGS) {
      const c = JSON.parse((await sub.waitFor((m) => m.topic.endsWith(`/${key}/config`))).payload);
      expect(c.availability_mode, key).toBe('all');
      expect(c.availability.map((a: { topic: string }) => a.topic), key).toEqual(['home-lan-bridge/energy/availability', 'home-lan-bridge/energy/gateway']);
    }
    // Whether the gateway answers stays visible itself (only the bridge's availability).
    const conn = JSON.parse((await sub.waitFor((m) => m.topic.endsWith('/gateway_connected/config'))).payload);
    expect(conn.availability_topic).toBe('home-lan-bridge/energy/availability');
    expect(conn).not.toHaveProperty('availability');
    expect((await sub.waitFor((m) => m.topic === 'home-lan-bridge/energy/gateway')).payload).toBe('online');

    // The gateway goes away: the next failed poll says offline (retained, for a Home Assistant that starts now).
    const port = h.sim.port;
    const plant = h.sim.plant;
    // Reconnect 1 s after a failed poll, not the default 10 s: the test waits for the return below.
    const s0 = h.service.settings.get();
    h.service.settings.replace({ ...s0, polling: { ...s0.polling, retryDelayMs: 1000 } });
    await h.sim.close();
    await waitForState(h.service, (s) => !s.connected);
    const off = await sub.waitFor((m) => m.topic === 'home-lan-bridge/energy/gateway' && m.payload === 'offline', 5000);
    expect(off).toBeDefined();
    const store = await retainedByTopic(b.url, ['home-lan-bridge/energy/+']);
    expect(store.get('home-lan-bridge/energy/gateway')).toBe('offline');
    expect(store.get('home-lan-bridge/energy/availability')).toBe('online');

    // Back on the same address: online again.
    const since = sub.seen.length;
    const again = await startGatewaySimulator({ firmware: 'V2.9', port, plantModel: plant });
    cleanups.push(() => again.close());
    await waitForState(h.service, (s) => s.connected, 15_000);
    expect((await sub.waitFor((m) => m.topic === 'home-lan-bridge/energy/gateway', 5000, since)).payload).toBe('online');
  });

  it('the recording sync too: a config under its node that it does not send is taken off the broker', async () => {
    const b = await broker();
    const h = await startHarness({ box: { shows: [] } });
    cleanups.push(() => h.cleanup());
    expect((await h.api.patch('/api/settings', { mqtt_url: b.url })).status).toBe(200);
    const sub = await watch(b.url, ['homeassistant/#']);
    cleanups.push(() => sub.close());
    const button = await sub.waitFor((m) => m.topic.endsWith('/sync_now/config'), 8000);
    const id = button.topic.split('/')[2]!;
    expect(JSON.parse(button.payload)).toMatchObject({ default_entity_id: `button.${id}_sync_now`, o: { name: 'Home LAN Bridge' } });
    // An earlier version's entity, still retained under this device.
    const stale = `homeassistant/sensor/${id}/last_sync_duration/config`;
    await sub.client.publishAsync(stale, JSON.stringify({ name: 'Last sync duration', unique_id: `${id}_last_sync_duration`, object_id: `${id}_last_sync_duration` }), { retain: true, qos: 1 });
    await sub.waitFor((m) => m.topic === stale && m.payload === '', 8000);
    await sub.close();
    expect([...(await retainedByTopic(b.url, ['homeassistant/#'])).keys()].filter((t) => t.includes(`/${id}/`))).toHaveLength(13); // 12 sensors and binary sensors (3 of them the ad-removal counts) and the Sync now button
    expect((await retainedByTopic(b.url, [stale])).size).toBe(0);
  });
});
