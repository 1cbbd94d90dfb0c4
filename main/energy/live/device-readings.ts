import { batteryDirection } from './directions.js';
import type { LiveState } from '../live-state.js';

/**
 * The readings the home-automation consumers (HomeKit bridge, smart-home fulfillment) expose:
 * one battery and a fixed list of power flows, each a non-negative watt figure (a signed flow is
 * split in two, because neither protocol has a signed power sensor). `null` = not known.
 */
export interface PowerFlow {
  /** Stable id (HomeKit accessory and smart-home device ids derive from it). */
  id: 'solar' | 'home' | 'gridImport' | 'gridExport' | 'batteryCharge' | 'batteryDischarge';
  name: string;
  watts(state: LiveState): number | null;
}

const positive = (w: number | null) => (w === null ? null : Math.max(0, w));
const negative = (w: number | null) => (w === null ? null : Math.max(0, -w));

export const POWER_FLOWS: readonly PowerFlow[] = [
  { id: 'solar', name: 'Solar power', watts: (s) => positive(s.power.solar) },
  { id: 'home', name: 'Home power', watts: (s) => positive(s.power.home) },
  { id: 'gridImport', name: 'Grid import', watts: (s) => positive(s.power.grid) },
  { id: 'gridExport', name: 'Grid export', watts: (s) => negative(s.power.grid) },
  { id: 'batteryCharge', name: 'Battery charging', watts: (s) => positive(s.power.battery) },
  { id: 'batteryDischarge', name: 'Battery discharging', watts: (s) => negative(s.power.battery) },
];

/** Percent at or below which the battery reports "low" when no reserve is known. */
export const LOW_BATTERY_DEFAULT = 20;

export interface BatteryReading {
  /** State of charge, whole percent; null when never read. */
  level: number | null;
  charging: boolean | null;
  low: boolean | null;
  capacityKwh: number | null;
  remainingKwh: number | null;
}

export function batteryReading(state: LiveState, reserveSetting: number | null = null): BatteryReading {
  const soc = state.battery.soc;
  const level = soc === null ? null : Math.round(Math.min(100, Math.max(0, soc)));
  const dir = batteryDirection(state.power.battery);
  const reserve = reserveSetting ?? state.battery.reserveSoc;
  return {
    level,
    charging: dir === null ? null : dir === 'charge',
    low: soc === null ? null : soc <= Math.max(reserve ?? 0, LOW_BATTERY_DEFAULT),
    capacityKwh: state.battery.ratedCapacityKwh,
    remainingKwh: state.battery.energyRemainingKwh,
  };
}
