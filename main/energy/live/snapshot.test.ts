import { describe, expect, it } from 'vitest';
import type { Estimate } from './estimate.js';
import { emptyLiveState, type LiveState } from '../live-state.js';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { buildSnapshot } from './snapshot.js';

// spec/energy-bridge.md "Snapshot": field by field, with the spec's values (four-decimal rounding,
// 50 W deadband from shared/reference/open-values.md, `String N` / `Smart load N` default names).
const NOW = Date.UTC(2026, 10, 25, 9, 30, 0);
const IDLE: Estimate = { status: 'idle' } as Estimate;

function liveState(): LiveState {
  const s = emptyLiveState({ host: '127.0.0.1', port: 502 }, 5000);
  return {
    ...s,
    connected: true,
    lastUpdated: NOW - 2500,
    power: { solar: 4321, solarNative: 4000, solarThirdParty: 321, home: 1200, homeGeneral: 900, smartPort: 300, grid: -49, battery: -50, batteryGross: -60 },
    battery: { soc: 62.5, soh: 98, ratedCapacityKwh: 16.12, reserveSoc: 10, energyRemainingKwh: 10.123456, energyChargeableKwh: 5 },
    energy: {
      consumedToday: 12.345678,
      pvToday: 20,
      lifetime: { pv: 1000.00004, consumed: 2000.00005, gridImport: 3000.123449, gridExport: 4000.98765, batteryCharge: 5000.11111, batteryDischarge: 6000.22229 },
    },
    inverters: [{
      unitId: 1, model: 'SigenStor EC 10.0 TP', serial: 'INV-A', firmware: 'V100R001C00SPC112', status: 'running', activePower: 3900, solarPower: 4000, temperature: 41.5, soc: 62.5, soh: 98,
      strings: [{ index: 1, voltage: 400, current: 5, power: 2000 }, { index: 2, voltage: 410, current: 5.6, power: 2296 }],
    }],
    smartLoads: [{ index: 3, power: 300, lifetimeEnergy: 12.345649 }, { index: 7, power: -20, lifetimeEnergy: null }],
  };
}

const settings = (patch: Record<string, unknown> = {}) => energySettingsSchema.parse(patch);

describe('snapshot assembly (spec field by field)', () => {
  it('carries the schema, times as ISO, connection and the poll interval', () => {
    const snap = buildSnapshot({ state: liveState(), settings: settings(), now: NOW, estimate: IDLE });
    expect(snap.schema).toBe(1);
    expect(snap.generatedAt).toBe('2026-11-25T09:30:00.000Z');
    expect(snap.lastUpdated).toBe('2026-11-25T09:29:57.500Z');
    expect(snap.connected).toBe(true);
    expect(snap.pollIntervalMs).toBe(5000);
  });

  it('before the first poll lastUpdated is null and the values are null, not zero', () => {
    const snap = buildSnapshot({ state: emptyLiveState({ host: '127.0.0.1', port: 502 }, 5000), settings: settings(), now: NOW, estimate: IDLE });
    expect(snap.lastUpdated).toBeNull();
    expect(snap.connected).toBe(false);
    expect(snap.power.smartPort).toBeNull();
    expect(snap.power.gridDirection).toBeNull();
    expect(snap.battery.energyRemainingKwh).toBeNull();
    expect(snap.energy.consumedToday).toBeNull();
    expect(snap.energy.lifetime).toEqual({ pv: null, consumed: null, gridImport: null, gridExport: null, batteryCharge: null, batteryDischarge: null });
    expect(snap.devices).toEqual([]);
    expect(snap).not.toHaveProperty('weather');
    expect(snap).not.toHaveProperty('tariff');
    expect(snap).not.toHaveProperty('history');
  });

  it('units: W and kWh, temperature and currency from the settings', () => {
    expect(buildSnapshot({ state: liveState(), settings: settings(), now: NOW, estimate: IDLE }).units).toEqual({ power: 'W', energy: 'kWh', temperature: 'celsius', currency: 'AUD' });
    const other = settings({ general: { temperatureUnit: 'fahrenheit', currency: 'EUR' } });
    expect(buildSnapshot({ state: liveState(), settings: other, now: NOW, estimate: IDLE }).units).toEqual({ power: 'W', energy: 'kWh', temperature: 'fahrenheit', currency: 'EUR' });
  });

  it('power flows as read, with directions past the 50 W deadband', () => {
    const snap = buildSnapshot({ state: liveState(), settings: settings(), now: NOW, estimate: IDLE });
    expect(snap.power).toEqual({
      solar: 4321, solarNative: 4000, solarThirdParty: 321, home: 1200, homeGeneral: 900, smartPort: 300, grid: -49, battery: -50,
      gridDirection: 'idle', batteryDirection: 'discharge',
    });
    expect(snap.battery.direction).toBe('discharge');
  });

  it('smartPort is null when no smart load is detected', () => {
    const st = liveState();
    st.power.smartPort = null;
    st.smartLoads = [];
    expect(buildSnapshot({ state: st, settings: settings(), now: NOW, estimate: IDLE }).power.smartPort).toBeNull();
  });

  it('kWh figures rounded to four decimals', () => {
    const snap = buildSnapshot({ state: liveState(), settings: settings(), now: NOW, estimate: IDLE });
    expect(snap.battery.energyRemainingKwh).toBe(10.1235);
    expect(snap.energy.consumedToday).toBe(12.3457);
    expect(snap.energy.lifetime).toEqual({ pv: 1000, consumed: 2000.0001, gridImport: 3000.1234, gridExport: 4000.9877, batteryCharge: 5000.1111, batteryDischarge: 6000.2223 });
    const load = snap.devices.find((d) => d.type === 'smartLoad' && d.index === 3);
    expect(load).toMatchObject({ lifetimeEnergy: 12.3456 });
  });

  it('battery: capacity and reserve from the settings when set, else from the gateway; the estimate passed through', () => {
    const ready = { status: 'ready', direction: 'discharge', target: 'reserve', minutesRemaining: 90, etaIso: '2026-11-25T11:00:00.000Z', energyToGoKwh: 8.5 } as Estimate;
    const fromGateway = buildSnapshot({ state: liveState(), settings: settings(), now: NOW, estimate: ready }).battery;
    expect(fromGateway).toEqual({ soc: 62.5, soh: 98, capacityKwh: 16.12, reserveSoc: 10, energyRemainingKwh: 10.1235, direction: 'discharge', estimate: ready });
    const own = buildSnapshot({ state: liveState(), settings: settings({ battery: { capacityKwh: 24, reserveSoc: 20 } }), now: NOW, estimate: IDLE }).battery;
    expect(own.capacityKwh).toBe(24);
    expect(own.reserveSoc).toBe(20);
  });

  it('devices: inverters with `String N` names unless named in the settings, smart loads `Smart load N` unless named', () => {
    const named = settings({ names: { strings: { 'INV-A': { 2: 'East roof' } }, smartLoads: { 7: 'Pool pump' } } });
    const snap = buildSnapshot({ state: liveState(), settings: named, now: NOW, estimate: IDLE });
    expect(snap.devices).toEqual([
      {
        type: 'inverter', unitId: 1, model: 'SigenStor EC 10.0 TP', serial: 'INV-A', status: 'running', activePower: 3900, solarPower: 4000, temperature: 41.5, soc: 62.5, soh: 98,
        strings: [{ index: 1, name: 'String 1', voltage: 400, current: 5, power: 2000 }, { index: 2, name: 'East roof', voltage: 410, current: 5.6, power: 2296 }],
      },
      { type: 'smartLoad', index: 3, name: 'Smart load 3', power: 300, lifetimeEnergy: 12.3456 },
      { type: 'smartLoad', index: 7, name: 'Pool pump', power: -20, lifetimeEnergy: null },
    ]);
    // A name keyed to another inverter's serial does not leak onto this one.
    const elsewhere = buildSnapshot({ state: liveState(), settings: settings({ names: { strings: { 'INV-B': { 1: 'West' } } } }), now: NOW, estimate: IDLE });
    expect((elsewhere.devices[0] as { strings: Array<{ name: string }> }).strings.map((s) => s.name)).toEqual(['String 1', 'String 2']);
  });

  it('history only when given (the features add their own blocks: service/snapshot.ts)', () => {
    const snap = buildSnapshot({ state: liveState(), settings: settings(), now: NOW, estimate: IDLE, history: { count: 3, firstT: NOW - 10_000, lastT: NOW } });
    expect(snap.history).toEqual({ count: 3, firstT: NOW - 10_000, lastT: NOW, links: { recent: '/api/history', export: '/api/history/export?format=json&every=60' } });
    expect(buildSnapshot({ state: liveState(), settings: settings(), now: NOW, estimate: IDLE }).history).toBeUndefined();
  });
});
