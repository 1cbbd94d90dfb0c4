import type { Estimate } from './estimate.js';
import { batteryDirection, gridDirection } from './directions.js';
import type { LiveState } from '../live-state.js';
import type { EnergySettings } from '../settings/energy-settings.js';
import type { CoreSnapshot } from './snapshot-schema.js';

export interface HistoryStats {
  count: number;
  firstT: number | null;
  lastT: number | null;
}

export interface SnapshotInputs {
  state: LiveState;
  settings: EnergySettings;
  now: number;
  estimate: Estimate;
  history?: HistoryStats | null;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const round4 = (v: number | null) => (v === null ? null : Math.round(v * 10_000) / 10_000);

/** Assembles the curated snapshot from the live state and the settings that name and scale it. */
export function buildSnapshot({ state, settings, now, estimate, history }: SnapshotInputs): CoreSnapshot {
  const p = state.power;
  const names = settings.names;
  const snapshot: CoreSnapshot = {
    schema: 1,
    generatedAt: iso(now)!,
    lastUpdated: iso(state.lastUpdated),
    connected: state.connected,
    pollIntervalMs: state.pollIntervalMs,
    units: { power: 'W', energy: 'kWh', temperature: settings.general.temperatureUnit, currency: settings.general.currency },
    power: {
      solar: p.solar,
      solarNative: p.solarNative,
      solarThirdParty: p.solarThirdParty,
      home: p.home,
      homeGeneral: p.homeGeneral,
      smartPort: p.smartPort,
      grid: p.grid,
      battery: p.battery,
      gridDirection: gridDirection(p.grid),
      batteryDirection: batteryDirection(p.battery),
    },
    battery: {
      soc: state.battery.soc,
      soh: state.battery.soh,
      capacityKwh: settings.battery.capacityKwh ?? state.battery.ratedCapacityKwh,
      reserveSoc: settings.battery.reserveSoc ?? state.battery.reserveSoc,
      energyRemainingKwh: round4(state.battery.energyRemainingKwh),
      direction: batteryDirection(p.battery),
      estimate,
    },
    energy: {
      consumedToday: round4(state.energy.consumedToday),
      lifetime: {
        pv: round4(state.energy.lifetime.pv),
        consumed: round4(state.energy.lifetime.consumed),
        gridImport: round4(state.energy.lifetime.gridImport),
        gridExport: round4(state.energy.lifetime.gridExport),
        batteryCharge: round4(state.energy.lifetime.batteryCharge),
        batteryDischarge: round4(state.energy.lifetime.batteryDischarge),
      },
    },
    devices: [
      ...state.inverters.map((inv) => ({
        type: 'inverter' as const,
        unitId: inv.unitId,
        model: inv.model,
        serial: inv.serial,
        status: inv.status,
        activePower: inv.activePower,
        solarPower: inv.solarPower,
        temperature: inv.temperature,
        soc: inv.soc,
        soh: inv.soh,
        strings: inv.strings.map((s) => ({ ...s, name: names.strings[inv.serial]?.[String(s.index)] ?? `String ${s.index}` })),
      })),
      ...state.smartLoads.map((l) => ({
        type: 'smartLoad' as const,
        index: l.index,
        name: names.smartLoads[String(l.index)] ?? `Smart load ${l.index}`,
        power: l.power,
        lifetimeEnergy: round4(l.lifetimeEnergy),
      })),
    ],
  };
  if (history) {
    snapshot.history = {
      ...history,
      links: { recent: '/api/history', export: '/api/history/export?format=json&every=60' },
    };
  }
  return snapshot;
}
