import type { Firmware, RegisterDef } from './registers.js';

/**
 * The plant's control registers on unit 247 (holding table, written with FC 0x06 / 0x10 and read
 * back with 0x03), as ../shared/reference/gateway-modbus.md "Status and control registers" lists
 * them. This is the write allow-list: a register not named here is never written (plant start/stop,
 * 40000, is deliberately absent). Power limits are U32 kW×1000, so the decoded value is in watts.
 */
export const CONTROL_REGISTERS = {
  remoteEms: def('remoteEms', 40029, 'u16', 1, 'enum', 'V2.5'),
  controlMode: def('controlMode', 40031, 'u16', 1, 'enum', 'V2.5'),
  chargeLimitW: def('chargeLimitW', 40032, 'u32', 1, 'W', 'V2.5'),
  dischargeLimitW: def('dischargeLimitW', 40034, 'u32', 1, 'W', 'V2.5'),
  pvLimitW: def('pvLimitW', 40036, 'u32', 1, 'W', 'V2.5'),
  exportLimitW: def('exportLimitW', 40038, 'u32', 1, 'W', 'V2.5'),
  importLimitW: def('importLimitW', 40040, 'u32', 1, 'W', 'V2.5'),
  backupSoc: def('backupSoc', 40046, 'u16', 10, '%', 'V2.7'),
  chargeCutoffSoc: def('chargeCutoffSoc', 40047, 'u16', 10, '%', 'V2.7'),
  dischargeCutoffSoc: def('dischargeCutoffSoc', 40048, 'u16', 10, '%', 'V2.7'),
} as const;

export type ControlKey = keyof typeof CONTROL_REGISTERS;
export type ControlValues = Partial<Record<ControlKey, number>>;

/** Plant start/stop: write-only, and never written by this program (a public integration that did left inverters off). */
export const PLANT_START_STOP = 40000;

/** EMS work mode (30003, input): 7 while remote EMS is on. */
export const EMS_WORK_MODE = def('emsWorkMode', 30003, 'u16', 1, 'enum', 'V1.8', 'input');
/** The ESS's rated charging / discharging power (30068 / 30070, U32 kW×1000), the upper bound of 40032 / 40034. */
export const RATED_CHARGE_POWER = def('ratedChargeW', 30068, 'u32', 1, 'W', 'V1.8', 'input');
export const RATED_DISCHARGE_POWER = def('ratedDischargeW', 30070, 'u32', 1, 'W', 'V1.8', 'input');

/** Remote EMS control modes (40031). 7 is not a mode; 8 (V2G) exists from V2.9. */
export const CONTROL_MODES = {
  pcs: 0,
  standby: 1,
  selfConsumption: 2,
  chargeGridFirst: 3,
  chargePvFirst: 4,
  dischargePvFirst: 5,
  dischargeEssFirst: 6,
} as const;

/** EMS work modes (30003) in words. */
export const EMS_WORK_MODE_NAMES: Record<number, string> = {
  0: 'maximum self-consumption',
  1: 'AI mode',
  2: 'time of use',
  5: 'full feed-in to grid',
  7: 'remote EMS',
  9: 'custom',
};

function def(key: string, address: number, type: 'u16' | 'u32', divisor: number, unit: RegisterDef['unit'], since: Firmware, table: 'holding' | 'input' = 'holding'): RegisterDef {
  return { key, address, words: type === 'u32' ? 2 : 1, type, divisor, unit, table, since };
}
