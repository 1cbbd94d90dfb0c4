/**
 * The gateway's Modbus register map as data (see shared/reference/gateway-modbus.md).
 * Addresses as written in the vendor document; multi-word values big-endian, high word first.
 * A new register is one line here plus its decode test.
 */
export type RegisterType = 'u16' | 's16' | 'u32' | 's32' | 'u64' | 'ascii';
export type Table = 'input' | 'holding';
/** Firmware protocol generations, oldest first. */
export const FIRMWARE_VERSIONS = ['V1.8', 'V2.5', 'V2.6', 'V2.7', 'V2.8', 'V2.9'] as const;
export type Firmware = (typeof FIRMWARE_VERSIONS)[number];

export interface RegisterDef {
  key: string;
  address: number;
  words: number;
  type: RegisterType;
  /** Decoded value = raw / divisor (1 for plain integers and ASCII). */
  divisor: number;
  unit: 'W' | 'kWh' | '%' | 'V' | 'A' | '°C' | 'enum' | 'count' | 'text';
  table: Table;
  since: Firmware;
}

const r = (
  key: string,
  address: number,
  type: RegisterType,
  divisor: number,
  unit: RegisterDef['unit'],
  since: Firmware = 'V1.8',
  table: Table = 'input',
  words = type === 'u64' ? 4 : type === 'u32' || type === 's32' ? 2 : 1,
): RegisterDef => ({ key, address, words, type, divisor, unit, table, since });

export const PLANT_UNIT = 247;

/**
 * Most registers one read may ask for: every vendor protocol version (V1.8–V2.9, section 6.1) allows
 * 1 to 124, not the generic Modbus 125. A gateway that enforces it answers 0x03 to a 125-word read.
 */
export const MAX_READ_WORDS = 124;

/** Plant registers on unit 247. */
export const PLANT_REGISTERS: readonly RegisterDef[] = [
  r('gridPower', 30005, 's32', 1, 'W'),
  r('soc', 30014, 'u16', 10, '%'),
  r('plantActivePower', 30031, 's32', 1, 'W'),
  r('pvPower', 30035, 's32', 1, 'W'),
  r('batteryPowerGross', 30037, 's32', 1, 'W'),
  r('runningState', 30051, 'u16', 1, 'enum'),
  r('energyChargeable', 30064, 'u32', 100, 'kWh'),
  r('energyRemaining', 30066, 'u32', 100, 'kWh'),
  r('ratedCapacity', 30083, 'u32', 100, 'kWh', 'V2.5'),
  r('soh', 30087, 'u16', 10, '%', 'V2.5'),
  r('lifetimePv', 30088, 'u64', 100, 'kWh', 'V2.6'),
  r('consumedToday', 30092, 'u32', 100, 'kWh', 'V2.6'),
  r('lifetimeConsumed', 30094, 'u64', 100, 'kWh', 'V2.6'),
  ...Array.from({ length: 24 }, (_, i) => r(`smartLoadEnergy.${i + 1}`, 30098 + 2 * i, 'u32', 100, 'kWh', 'V2.6')),
  ...Array.from({ length: 24 }, (_, i) => r(`smartLoadPower.${i + 1}`, 30146 + 2 * i, 's32', 1, 'W', 'V2.6')),
  r('thirdPartyPvPower', 30194, 's32', 1, 'W', 'V2.7'),
  r('lifetimeBatteryCharge', 30200, 'u64', 100, 'kWh', 'V2.7'),
  r('lifetimeBatteryDischarge', 30204, 'u64', 100, 'kWh', 'V2.7'),
  r('lifetimeGridImport', 30216, 'u64', 100, 'kWh', 'V2.7'),
  r('lifetimeGridExport', 30220, 'u64', 100, 'kWh', 'V2.7'),
  r('pvToday', 30272, 'u32', 100, 'kWh', 'V2.9'),
  r('generalLoadPower', 30282, 's32', 1, 'W', 'V2.8'),
  r('totalLoadPower', 30284, 's32', 1, 'W', 'V2.8'),
  r('reserveSoc', 40046, 'u16', 10, '%', 'V2.6', 'holding'),
  r('chargeCutoffSoc', 40047, 'u16', 10, '%', 'V2.6', 'holding'),
  r('dischargeCutoffSoc', 40048, 'u16', 10, '%', 'V2.6', 'holding'),
];

/**
 * Keys of the plant's lifetime energy totals (kWh that only ever rise): the ones a consumer books
 * as energy, checked before publishing (see counter-check.ts). Today's totals reset at midnight
 * and are not among them.
 */
export const LIFETIME_COUNTERS: readonly string[] = PLANT_REGISTERS.filter((r) => r.key.startsWith('lifetime') || r.key.startsWith('smartLoadEnergy.')).map((r) => r.key);

/** Identity registers of an inverter (read once when the plant is enumerated). */
export const INVERTER_IDENTITY: readonly RegisterDef[] = [
  r('model', 30500, 'ascii', 1, 'text', 'V1.8', 'input', 15),
  r('serial', 30515, 'ascii', 1, 'text', 'V1.8', 'input', 10),
  r('firmware', 30525, 'ascii', 1, 'text', 'V1.8', 'input', 15),
];

export const MAX_STRINGS = 16;

/** Address of string i's voltage (current is the next address); strings 5+ live elsewhere. */
export function stringVoltageAddress(i: number): number {
  return i <= 4 ? 31027 + 2 * (i - 1) : 31042 + 2 * (i - 5);
}

/** Live registers of an inverter, read each poll on the inverter's own unit id. */
export const INVERTER_REGISTERS: readonly RegisterDef[] = [
  r('runningState', 30578, 'u16', 1, 'enum'),
  r('activePower', 30587, 's32', 1, 'W'),
  r('soc', 30601, 'u16', 10, '%'),
  r('soh', 30602, 'u16', 10, '%'),
  r('temperature', 31003, 's16', 10, '°C'),
  r('stringCount', 31025, 'u16', 1, 'count'),
  r('dcPower', 31035, 's32', 1, 'W'),
  ...Array.from({ length: MAX_STRINGS }, (_, k) => {
    const i = k + 1;
    return [r(`stringVoltage.${i}`, stringVoltageAddress(i), 's16', 10, 'V'), r(`stringCurrent.${i}`, stringVoltageAddress(i) + 1, 's16', 100, 'A')];
  }).flat(),
];

/** Running state → the snapshot's four-value status. 7 (environmental abnormality) is a fault. */
export function inverterStatus(state: number | null): 'standby' | 'running' | 'fault' | 'shutdown' | null {
  switch (state) {
    case 0:
      return 'standby';
    case 1:
      return 'running';
    case 2:
    case 7:
      return 'fault';
    case 3:
      return 'shutdown';
    default:
      return null;
  }
}

/** Registers whose first successful read identifies the protocol version, newest first. */
export const VERSION_PROBES: ReadonlyArray<[number, Firmware]> = [
  [30272, 'V2.9'],
  [30284, 'V2.8'],
  [30194, 'V2.7'],
  [30092, 'V2.6'],
  [30087, 'V2.5'],
];

export function firmwareAtLeast(fw: Firmware, since: Firmware): boolean {
  return FIRMWARE_VERSIONS.indexOf(fw) >= FIRMWARE_VERSIONS.indexOf(since);
}
