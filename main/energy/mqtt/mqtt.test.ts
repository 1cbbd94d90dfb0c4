import { pino, type Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoClock, systemClock, type Clock } from '../../core/clock.js';
import { startBanner } from '../../core/testing/lan-targets.js';
import { startEnergyHarness, waitForState } from '../testing/harness.js';
import type { Snapshot } from '../published.js';
import { mosquittoUnavailable, startMosquitto, watch, type Broker } from '../../integrations/mqtt/testing/mosquitto.js';

const skip = mosquittoUnavailable();
if (skip) console.warn(`MQTT integration tests skipped: ${skip}`);

type Harness = Awaited<ReturnType<typeof startEnergyHarness>> & { clock: Clock };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function withBroker(opts?: Parameters<typeof startMosquitto>[0]): Promise<Broker> {
  const b = await startMosquitto(opts);
  cleanups.push(() => b.close());
  return b;
}

/**
 * `fast`: the bridge runs on a clock four times faster than real time (the demo's clock): its polls
 * (1 s) and MQTT reconnect waits keep their lengths in its time and take a quarter of it in real
 * time. The gateway's reply timeout stays real time, and so does the wait between two state
 * publishes (so on this clock a state send may skip polls: not for a test of the values per poll).
 */
async function withBridge(env: Record<string, string>, opts: { logger?: Logger; fast?: boolean } = {}): Promise<Harness> {
  const { logger, fast = true } = opts;
  const clock = fast ? createDemoClock({ start: Date.now(), speed: 4 }) : systemClock;
  const h = await startEnergyHarness({ env, deps: { clock, ...(logger ? { logger } : {}) } });
  cleanups.push(() => h.stop());
  return Object.assign(h, { clock });
}

async function putSettings(h: Harness, body: unknown) {
  const res = await fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const waitUntil = async (pred: () => boolean, timeoutMs: number, what: string) => {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`${what} not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.skipIf(skip !== null)('energy bridge on MQTT with Home Assistant discovery (real mosquitto)', () => {
  it('publishes retained, well-formed discovery configs, online availability, and the snapshot values within a poll', async () => {
    const broker = await withBroker();
    const h = await withBridge({ MQTT_URL: broker.url });
    await waitForState(h.service, (s) => s.connected && s.battery.soc !== null);
    expect((await putSettings(h, { mqtt: { publishIntervalSeconds: 1 } })).status).toBe(200);
    await waitUntil(() => h.service.snapshot().energy.lifetime.gridImport !== null, 5000, 'lifetime counters');

    // A subscriber that arrives later sees everything retained: that is what Home Assistant relies on.
    // The bridge sends its configs and then the state on one connection, so once a first listener
    // got a state, the broker holds the configs.
    const early = await watch(broker.url, ['home-lan-bridge/energy/state']);
    cleanups.push(() => early.close());
    await early.waitFor(() => true, 5000);
    const sub = await watch(broker.url, ['homeassistant/#', 'home-lan-bridge/#']);
    cleanups.push(() => sub.close());
    const online = await sub.waitFor((m) => m.topic === 'home-lan-bridge/energy/availability');
    expect(online).toMatchObject({ payload: 'online', retain: true });
    await new Promise((r) => setTimeout(r, 300));
    const configs = sub.seen.filter((m) => m.topic.startsWith('homeassistant/') && m.topic.endsWith('/config'));
    expect(configs.length).toBeGreaterThanOrEqual(15);
    const byKey = new Map<string, Record<string, any>>(); // eslint-disable-line @typescript-eslint/no-explicit-any
    const ids = new Set<string>();
    for (const m of configs) {
      expect(m.retain, m.topic).toBe(true);
      // Battery control adds a select, two numbers and a button (issue 44: control/control-mqtt.test.ts).
      expect(m.topic).toMatch(/^homeassistant\/(sensor|binary_sensor|select|number|button)\/[a-z0-9_]+\/[a-z0-9_]+\/config$/);
      const c = JSON.parse(m.payload);
      expect(c.unique_id).toMatch(/^hlb_energy_[0-9a-f]{10}_/);
      ids.add(c.unique_id);
      // The bridge's own availability, alone or (the gateway's readings) with the gateway's.
      expect(c.availability_topic ?? c.availability[0].topic).toBe('home-lan-bridge/energy/availability');
      expect(c.default_entity_id).toBe(`${m.topic.split('/')[1]}.${c.unique_id}`);
      if (!m.topic.startsWith('homeassistant/button/')) expect(c.state_topic).toBe('home-lan-bridge/energy/state');
      expect(c.device.identifiers).toHaveLength(1);
      expect(c.device.name).toBe('Energy bridge');
      byKey.set(m.topic.split('/')[3]!, c);
    }
    expect(ids.size).toBe(configs.length);
    // HA's Energy dashboard takes energy sensors in kWh that only grow.
    for (const k of ['lifetime_pv', 'lifetime_consumed', 'lifetime_grid_import', 'lifetime_grid_export', 'lifetime_battery_charge', 'lifetime_battery_discharge']) {
      expect(byKey.get(k), k).toMatchObject({ device_class: 'energy', state_class: 'total_increasing', unit_of_measurement: 'kWh' });
    }
    expect(byKey.get('battery_soc')).toMatchObject({ device_class: 'battery', unit_of_measurement: '%' });
    expect(byKey.get('battery_soh')).toMatchObject({ device_class: 'battery', unit_of_measurement: '%' });
    for (const k of ['solar_power', 'home_power', 'grid_power', 'battery_power']) expect(byKey.get(k), k).toMatchObject({ device_class: 'power', unit_of_measurement: 'W' });
    expect(byKey.get('gateway_connected')).toMatchObject({ device_class: 'connectivity' });
    expect(configs.find((m) => m.topic === `homeassistant/binary_sensor/${byKey.get('gateway_connected')!.unique_id.replace(/_gateway_connected$/, '')}/gateway_connected/config`)).toBeDefined();

    // Values: the state published after a poll equals that poll's snapshot, within one poll (1 s
    // here). A send may carry a later poll than the one just fetched (it sends the newest state when
    // its wait ends), so each poll's snapshot is kept from now on and the next send compared with its own.
    const polls = new Map<string, Snapshot>();
    const off = h.service.state.subscribe(() => {
      const s = h.service.snapshot();
      polls.set(String(s.lastUpdated), s);
    });
    cleanups.push(async () => off());
    const state = await sub.waitFor((m) => m.topic === 'home-lan-bridge/energy/state' && polls.has(String(JSON.parse(m.payload).updated)), 2500, sub.seen.length);
    const snap = polls.get(String(JSON.parse(state.payload).updated))!;
    const v = JSON.parse(state.payload);
    expect(v.battery_soc).toBe(snap.battery.soc);
    expect(v.battery_soh).toBe(snap.battery.soh);
    expect(v.solar_power).toBe(snap.power.solar);
    expect(v.home_power).toBe(snap.power.home);
    expect(v.grid_power).toBe(snap.power.grid);
    expect(v.battery_power).toBe(snap.power.battery);
    expect(v.grid_direction).toBe(snap.power.gridDirection);
    expect(v.battery_direction).toBe(snap.power.batteryDirection);
    expect(v.lifetime_grid_import).toBe(snap.energy.lifetime.gridImport);
    expect(v.lifetime_pv).toBe(snap.energy.lifetime.pv);
    expect(v.consumed_today).toBe(snap.energy.consumedToday);
    expect(v.gateway_connected).toBe(true);
    expect(v.active_alerts).toBe(snap.alerts.length);
    expect(typeof v.battery_soc).toBe('number');
  });

  it('sends the configs again when Home Assistant announces itself, and reconnects after the broker restarts', async () => {
    const broker = await withBroker();
    const h = await withBridge({ MQTT_URL: broker.url });
    await waitForState(h.service, (s) => s.connected);
    const sub = await watch(broker.url, ['homeassistant/+/+/+/config', 'home-lan-bridge/energy/availability']);
    cleanups.push(() => sub.close());
    await sub.waitFor((m) => m.topic.endsWith('/battery_soc/config'));
    const before = sub.seen.length;
    await sub.client.publishAsync('homeassistant/status', 'online');
    const again = await sub.waitFor((m) => m.topic.endsWith('/battery_soc/config'), 3000, before);
    expect(again.retain).toBe(false); // a live re-publish, not the retained copy from subscribing
    await sub.close();

    await broker.kill();
    await new Promise((r) => setTimeout(r, 500));
    await broker.start();
    // Retained messages were in memory only: what the new broker holds was sent after the restart.
    const later = await watch(broker.url, ['home-lan-bridge/energy/availability', 'homeassistant/sensor/+/lifetime_grid_import/config']);
    cleanups.push(() => later.close());
    expect((await later.waitFor((m) => m.topic.endsWith('/availability'), 8000)).payload).toBe('online');
    await later.waitFor((m) => m.topic.endsWith('/lifetime_grid_import/config'), 3000);
    // The bridge polled on throughout.
    await waitForState(h.service, (s) => s.connected && s.lastUpdated! > h.clock.now() - 2000);
  });

  it('treats a broker that answers garbage, or a wrong password, as a logged state and keeps polling', async () => {
    const banner = await startBanner();
    cleanups.push(() => banner.close());
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const h = await withBridge({ MQTT_URL: `mqtt://127.0.0.1:${banner.port}` }, { logger });
    await waitForState(h.service, (s) => s.connected);
    const first = h.service.state.get().lastUpdated!;
    await waitForState(h.service, (s) => s.lastUpdated! > first + 1500, 5000);
    expect((await fetch(`${h.service.url}/api/snapshot`)).status).toBe(200);
    // Said once (not once per retry), as a warning in plain words, without a stack.
    const said = lines.map((l) => JSON.parse(l)).filter((l) => /MQTT/.test(l.msg));
    expect(said.length).toBeGreaterThanOrEqual(1);
    expect(said.filter((l) => l.msg === 'MQTT broker not reachable; retrying')).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, broker: `mqtt://127.0.0.1:${banner.port}` });
    expect(JSON.stringify(said)).not.toMatch(/"stack"/);

    const broker = await withBroker({ user: { name: 'ha', password: 'right-horse-battery' } });
    expect((await putSettings(h, { mqtt: { url: broker.url, username: 'ha', password: 'wrong' } })).status).toBe(200);
    const t = h.service.state.get().lastUpdated!;
    await waitForState(h.service, (s) => s.lastUpdated! > t + 1500, 5000);
    const sub = await watch(broker.url, ['home-lan-bridge/#'], { username: 'ha', password: 'right-horse-battery' });
    cleanups.push(() => sub.close());
    await new Promise((r) => setTimeout(r, 300));
    expect(sub.seen).toEqual([]);
    // The right password: online within a reconnect wait.
    expect((await putSettings(h, { mqtt: { password: 'right-horse-battery' } })).status).toBe(200);
    expect((await sub.waitFor((m) => m.topic === 'home-lan-bridge/energy/availability', 8000)).payload).toBe('online');
    expect(lines.join('\n')).not.toContain('right-horse-battery');
  });

  it('hides the password, and clears it when the broker address changes without a new one', async () => {
    const h = await withBridge({ MQTT_URL: 'mqtt://127.0.0.1:9', MQTT_USERNAME: 'ha', MQTT_PASSWORD: 'secret-pass-1' });
    const got = (await (await fetch(`${h.service.url}/api/settings`)).json()) as { mqtt: Record<string, unknown> };
    expect(got.mqtt).toMatchObject({ enabled: true, url: 'mqtt://127.0.0.1:9', username: 'ha', passwordSet: true });
    expect(JSON.stringify(got)).not.toContain('secret-pass-1');
    // Echoing the GET body back changes nothing.
    expect((await putSettings(h, { mqtt: got.mqtt })).body.cleared).toBeUndefined();
    expect(h.service.settings.get().mqtt.password).toBe('secret-pass-1');
    // Same broker, another spelling of the default port: still bound.
    expect((await putSettings(h, { mqtt: { url: 'mqtt://127.0.0.1:9/' } })).body.cleared).toBeUndefined();
    const moved = await putSettings(h, { mqtt: { url: 'mqtt://127.0.0.2:1883' } });
    expect(moved.status).toBe(200);
    expect(moved.body.cleared).toEqual(['mqtt.password']);
    expect(moved.body.message).toMatch(/only sent to the broker it was given for/);
    expect(moved.body.settings.mqtt.passwordSet).toBe(false);
    expect(h.service.settings.get().mqtt.password).toBe('');
    // Moving back does not bring it back; giving it with the move keeps it.
    await putSettings(h, { mqtt: { url: 'mqtt://127.0.0.1:9' } });
    expect(h.service.settings.get().mqtt.password).toBe('');
    const withPass = await putSettings(h, { mqtt: { url: 'mqtt://127.0.0.3:1883', password: 'secret-pass-2' } });
    expect(withPass.body.cleared).toBeUndefined();
    expect(h.service.settings.get().mqtt.password).toBe('secret-pass-2');
    // Bad input: a clear 400 naming the field.
    const bad = await putSettings(h, { mqtt: { url: 'http://broker.home.lan' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBeTypeOf('string');
    expect(bad.body.error.message).toMatch(/mqtt:\/\//);
    expect(JSON.stringify(bad.body)).not.toMatch(/at .*\.ts/);
  });

  it('a broker that stops reading never holds up a poll', async () => {
    const b = await withBroker();
    const h = await withBridge({ MQTT_URL: b.url });
    await waitForState(h.service, (s) => s.connected);
    expect((await putSettings(h, { mqtt: { publishIntervalSeconds: 1 } })).status).toBe(200);
    const sub = await watch(b.url, ['home-lan-bridge/energy/state']);
    cleanups.push(() => sub.close());
    await sub.waitFor(() => true, 5000);
    b.freeze(true);
    // Polls go on at the poll interval (1 s) while every publish meets a broker that reads nothing.
    const from = h.service.state.get().lastUpdated!;
    const seen = new Set<number>();
    const off = h.service.state.subscribe((s) => void (s.lastUpdated && s.lastUpdated > from && seen.add(s.lastUpdated)));
    await waitUntil(() => seen.size >= 4, 8000, 'four polls with the broker frozen');
    off();
    expect(h.service.state.get().connected).toBe(true);
    expect((await fetch(`${h.service.url}/api/snapshot`)).status).toBe(200);
    b.freeze(false);
  });
});
