import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { BatteryEstimator } from '../live/estimate.js';
import type { EnergyFeature } from '../feature.js';
import { emptyLiveState, LiveStateStore } from '../live-state.js';
import { createLiveSnapshot } from './snapshot.js';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { initialLiveFields, type Snapshot } from '../published.js';

// Issue 41 item 5: the snapshot is assembled once per poll, immutably, from the features' blocks,
// and every consumer in that poll gets the same object.
function setup() {
  const clock = createManualClock(Date.UTC(2026, 10, 25, 9, 30));
  // As the service makes it: the core's fields and the features' (published.ts).
  const state = new LiveStateStore(emptyLiveState({ host: '127.0.0.1', port: 502 }, 5000, initialLiveFields()));
  let settings = energySettingsSchema.parse({});
  let hookCalls = 0;
  const tariffFeature: EnergyFeature = {
    name: 'toy-tariff',
    snapshot: () => {
      hookCalls++;
      return { tariff: { name: 'Flat', currency: 'EUR' } as unknown as Snapshot['tariff'] };
    },
  };
  const live = createLiveSnapshot(() => ({ state: state.get(), settings, clock, estimator: new BatteryEstimator(), history: null, features: [tariffFeature], logger: silentLogger }));
  // Two consumers as the service wires them: MQTT publishes on each state change, GET /api/snapshot reads on request.
  const mqttSeen: Snapshot[] = [];
  state.subscribe(() => mqttSeen.push(live.current()));
  const httpGet = () => live.current();
  return {
    clock,
    state,
    live,
    mqttSeen,
    httpGet,
    hookCalls: () => hookCalls,
    replaceSettings: () => {
      settings = energySettingsSchema.parse({ general: { currency: 'GBP' } });
    },
  };
}

const poll = (state: LiveStateStore, at: number, soc: number) =>
  state.set({ ...state.get(), connected: true, lastUpdated: at, battery: { ...state.get().battery, soc } });

describe('the live snapshot, built once per poll', () => {
  it('hands every consumer of one poll the same object, built once', () => {
    const t = setup();
    poll(t.state, t.clock.now(), 50);
    const fromHttp = t.httpGet();
    expect(t.mqttSeen).toHaveLength(1);
    expect(t.mqttSeen[0]).toBe(fromHttp);
    expect(t.httpGet()).toBe(fromHttp);
    expect(t.live.builds).toBe(1);
    expect(t.hookCalls()).toBe(1);
    expect(fromHttp.battery.soc).toBe(50);
    expect(fromHttp.tariff).toEqual({ name: 'Flat', currency: 'EUR' });
  });

  it('builds again on the next poll and on a settings change, not on reads in between', () => {
    const t = setup();
    poll(t.state, t.clock.now(), 50);
    const first = t.httpGet();
    t.clock.advance(5000);
    expect(t.httpGet()).toBe(first);
    poll(t.state, t.clock.now(), 51);
    const second = t.httpGet();
    expect(second).not.toBe(first);
    expect(second.battery.soc).toBe(51);
    expect(t.live.builds).toBe(2);
    t.replaceSettings();
    expect(t.httpGet().units.currency).toBe('GBP');
    expect(t.live.builds).toBe(3);
    expect(t.hookCalls()).toBe(3);
  });

  it('is frozen: a consumer cannot change what the next one reads, nor the live state', () => {
    const t = setup();
    poll(t.state, t.clock.now(), 50);
    const snap = t.httpGet();
    expect(() => {
      (snap.battery as { soc: number | null }).soc = 99;
    }).toThrow(TypeError);
    expect(() => {
      (snap as { tariff?: unknown }).tariff = null;
    }).toThrow(TypeError);
    expect(Object.isFrozen(snap.energy.lifetime)).toBe(true);
    expect(t.httpGet().battery.soc).toBe(50);
    // Nothing of the live state was frozen with it: the poller may still build on it.
    expect(Object.isFrozen(t.state.get().battery)).toBe(false);
    expect(Object.isFrozen(t.state.get().alerts)).toBe(false);
  });
});
