import { EventEmitter } from 'node:events';
import type { Values } from './gateway/block-reader.js';
import type { GatewayReading } from './gateway/plant-reader.js';
import { inverterStatus, MAX_STRINGS, type Firmware } from './gateway/registers.js';

type W = number | null;

export interface StringReading {
  index: number;
  voltage: number | null;
  current: number | null;
  power: number | null;
}

export interface InverterState {
  unitId: number;
  model: string;
  serial: string;
  firmware: string;
  status: 'standby' | 'running' | 'fault' | 'shutdown' | null;
  activePower: W;
  solarPower: W;
  temperature: number | null;
  soc: number | null;
  soh: number | null;
  strings: StringReading[];
}

export interface SmartLoadState {
  index: number;
  power: W;
  lifetimeEnergy: number | null;
}

/**
 * The raw live state (`GET /api/state`, each SSE event): readings with the plant's power balance
 * derived, no names or presentation. Fields are null where the firmware lacks the register.
 * These are the core's fields; each feature declares its own in its folder (`<feature>/live-fields.ts`,
 * e.g. `weather`, `alerts`, `outlook`), composed after these in main/energy/published.ts
 * (`EnergyLiveState`). Features read each other's through live/shared-fields.ts only.
 */
export interface LiveState {
  connected: boolean;
  /** Epoch ms of the last successful poll, null before the first. */
  lastUpdated: number | null;
  lastError: string | null;
  pollIntervalMs: number;
  /** `hostHidden`: a host is configured but this client may not see it (locked, no session). */
  gateway: { host: string; port: number; firmware: Firmware | null; hostHidden?: boolean };
  power: { solar: W; solarNative: W; solarThirdParty: W; home: W; homeGeneral: W; smartPort: W; grid: W; battery: W; batteryGross: W };
  battery: { soc: number | null; soh: number | null; ratedCapacityKwh: number | null; reserveSoc: number | null; energyRemainingKwh: number | null; energyChargeableKwh: number | null };
  energy: {
    consumedToday: number | null;
    pvToday: number | null;
    lifetime: { pv: number | null; consumed: number | null; gridImport: number | null; gridExport: number | null; batteryCharge: number | null; batteryDischarge: number | null };
  };
  inverters: InverterState[];
  smartLoads: SmartLoadState[];
  /**
   * A write of the bridge's own data that fails (history on a full disk): what, the message, since
   * when (epoch ms); null while everything is saved.
   */
  storageError: { what: string; message: string; since: number } | null;
  /** The features' fields (their own declarations say what each holds). */
  [field: string]: unknown;
}

const num = (v: Values[string] | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const sum = (...xs: Array<number | null>): number | null => (xs.some((x) => x === null) ? null : xs.reduce<number>((a, b) => a + b!, 0));

/**
 * Derives power flows from a reading. Rules (documented in docs/energy-api.md):
 * - solar = own PV (30035) + third-party PV (30194, 0 when that register is unsupported).
 * - home = total load (30284); on firmware before V2.8 it is derived as plant active power (30031)
 *   + grid (30005) + third-party PV, which balances the AC bus.
 * - battery = solar + grid − home (matches the vendor app better than the gross 30037, which also
 *   counts the system's own draw); 30037 is the fallback when any term is unknown.
 */
export function derivePower(plant: Values): LiveState['power'] {
  const solarNative = num(plant.pvPower);
  const solarThirdParty = num(plant.thirdPartyPvPower);
  const solar = solarNative === null ? null : solarNative + (solarThirdParty ?? 0);
  const grid = num(plant.gridPower);
  const plantActive = num(plant.plantActivePower);
  const totalLoad = num(plant.totalLoadPower);
  const home = totalLoad ?? sum(plantActive, grid, solarThirdParty ?? 0);
  const batteryGross = num(plant.batteryPowerGross);
  const derived = solar !== null && grid !== null && home !== null ? solar + grid - home : null;
  const smart = smartLoadsOf(plant);
  return {
    solar,
    solarNative,
    solarThirdParty,
    home,
    homeGeneral: num(plant.generalLoadPower),
    smartPort: smart.length ? smart.reduce((a, s) => a + (s.power ?? 0), 0) : null,
    grid,
    battery: derived ?? batteryGross,
    batteryGross,
  };
}

/** Smart-port slots (1..24) that report non-zero power or energy. */
export function smartLoadsOf(plant: Values): SmartLoadState[] {
  const loads: SmartLoadState[] = [];
  for (let n = 1; n <= 24; n++) {
    const power = num(plant[`smartLoadPower.${n}`]);
    const energy = num(plant[`smartLoadEnergy.${n}`]);
    if ((power ?? 0) !== 0 || (energy ?? 0) !== 0) loads.push({ index: n, power, lifetimeEnergy: energy });
  }
  return loads;
}

export function inverterStateOf(inv: GatewayReading['inverters'][number]): InverterState {
  const v = inv.values;
  const count = Math.min(MAX_STRINGS, Math.max(0, num(v.stringCount) ?? 0));
  const strings: StringReading[] = [];
  for (let i = 1; i <= count; i++) {
    const voltage = num(v[`stringVoltage.${i}`]);
    const current = num(v[`stringCurrent.${i}`]);
    strings.push({ index: i, voltage, current, power: voltage !== null && current !== null ? Math.round(voltage * current * 10) / 10 : null });
  }
  return {
    unitId: inv.unitId,
    model: inv.model,
    serial: inv.serial,
    firmware: inv.firmware,
    status: inverterStatus(num(v.runningState)),
    activePower: num(v.activePower),
    solarPower: num(v.dcPower),
    temperature: num(v.temperature),
    soc: num(v.soc),
    soh: num(v.soh),
    strings,
  };
}

/** Applies one successful reading to the previous state. */
export function applyReading(prev: LiveState, reading: GatewayReading, at: number): LiveState {
  const p = reading.plant;
  return {
    ...prev,
    connected: true,
    lastUpdated: at,
    lastError: null,
    gateway: { ...prev.gateway, firmware: reading.firmware },
    power: derivePower(p),
    battery: {
      soc: num(p.soc),
      soh: num(p.soh),
      ratedCapacityKwh: num(p.ratedCapacity),
      reserveSoc: num(p.reserveSoc),
      energyRemainingKwh: num(p.energyRemaining),
      energyChargeableKwh: num(p.energyChargeable),
    },
    energy: {
      consumedToday: num(p.consumedToday),
      pvToday: num(p.pvToday),
      lifetime: {
        pv: num(p.lifetimePv),
        consumed: num(p.lifetimeConsumed),
        gridImport: num(p.lifetimeGridImport),
        gridExport: num(p.lifetimeGridExport),
        batteryCharge: num(p.lifetimeBatteryCharge),
        batteryDischarge: num(p.lifetimeBatteryDischarge),
      },
    },
    inverters: reading.inverters.map(inverterStateOf),
    smartLoads: smartLoadsOf(p),
  };
}

/** The live state before the first poll: the core's fields, then `fields` (the features' initial values, published.ts). */
export function emptyLiveState(gateway: { host: string; port: number }, pollIntervalMs: number, fields: Readonly<Record<string, unknown>> = {}): LiveState {
  return {
    connected: false,
    lastUpdated: null,
    lastError: null,
    storageError: null,
    pollIntervalMs,
    gateway: { ...gateway, firmware: null },
    power: { solar: null, solarNative: null, solarThirdParty: null, home: null, homeGeneral: null, smartPort: null, grid: null, battery: null, batteryGross: null },
    battery: { soc: null, soh: null, ratedCapacityKwh: null, reserveSoc: null, energyRemainingKwh: null, energyChargeableKwh: null },
    energy: { consumedToday: null, pvToday: null, lifetime: { pv: null, consumed: null, gridImport: null, gridExport: null, batteryCharge: null, batteryDischarge: null } },
    inverters: [],
    smartLoads: [],
    ...fields,
  };
}

/**
 * The shared in-memory live state. Every change is announced once on `change`; consumers
 * (SSE, history, HomeKit, smart-home, alerts) subscribe and get an unsubscribe function back.
 */
export class LiveStateStore<S extends LiveState = LiveState> {
  private state: S;
  private readonly bus = new EventEmitter();

  constructor(initial: S) {
    this.state = initial;
    this.bus.setMaxListeners(0);
  }

  get(): S {
    return this.state;
  }

  set(next: S): void {
    this.state = next;
    this.bus.emit('change', next);
  }

  update(patch: Partial<S>): void {
    this.set({ ...this.state, ...patch });
  }

  subscribe(listener: (state: S) => void): () => void {
    this.bus.on('change', listener);
    return () => this.bus.off('change', listener);
  }

  get listenerCount(): number {
    return this.bus.listenerCount('change');
  }
}
