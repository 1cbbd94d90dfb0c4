import { CONTROL_REGISTERS, EMS_WORK_MODE, RATED_CHARGE_POWER, RATED_DISCHARGE_POWER, type ControlKey } from '../gateway/control-registers.js';
import { encodeRegister } from '../gateway/decode.js';
import { FIRMWARE_VERSIONS, INVERTER_IDENTITY, INVERTER_REGISTERS, PLANT_REGISTERS, PLANT_UNIT, type Firmware, type RegisterDef } from '../gateway/registers.js';
import { startModbusServer, type ModbusServer } from './modbus-server.js';
import { PlantModel, type PlantOptions } from './plant-model.js';

/**
 * Address ranges each firmware generation answers on the plant unit, cumulative from V1.8.
 * Addresses outside them answer exception 0x02, so a block read spanning one fails as a whole,
 * exactly as the real gateway does. Gaps inside a range read as 0 (reserved registers).
 */
const PLANT_INPUT_RANGES: Record<Firmware, Array<[number, number]>> = {
  'V1.8': [[30000, 30082]],
  'V2.5': [[30083, 30087]],
  'V2.6': [[30088, 30193]],
  'V2.7': [[30194, 30271]],
  'V2.8': [[30282, 30285]],
  'V2.9': [[30272, 30281]],
};
const PLANT_HOLDING_RANGES: Partial<Record<Firmware, Array<[number, number]>>> = { 'V2.5': [[40000, 40041]], 'V2.6': [[40042, 40048]] };
const INVERTER_INPUT_RANGES: Array<[number, number]> = [
  [30500, 30612],
  [31000, 31070],
];

export interface GatewaySimulator {
  readonly server: ModbusServer;
  readonly plant: PlantModel;
  readonly host: string;
  readonly port: number;
  firmware: Firmware;
  /**
   * Plant register values served instead of the model's, by register key in decoded units, until
   * deleted: a firmware glitch such as a lifetime counter reading 0 for a poll.
   */
  readonly plantOverrides: Map<string, number>;
  /** Test hook: another controller (a virtual power plant, the vendor's app) sets a control register. */
  otherController(key: ControlKey, value: number): void;
  /**
   * Test hook: the plant model was changed directly (`plant.soc = 9`); the next read serves it. Reads
   * otherwise share one step of the model for 100 ms, which polls on a manual clock can all fall in.
   */
  plantChanged(): void;
  close(): Promise<void>;
}

export interface GatewaySimulatorOptions extends Partial<PlantOptions> {
  firmware?: Firmware;
  host?: string;
  port?: number;
  /** A plant to serve (for example one kept across a simulated restart). */
  plantModel?: PlantModel;
  /**
   * What a unit id with no device behind it does: `exception` answers 0x0B (gateway target failed
   * to respond, the default), `silent` drops the request with no reply at all, as many gateways do.
   */
  absentUnits?: 'exception' | 'silent';
  /**
   * `lenient` (default): reserved addresses inside a firmware's range read as 0. `strict`: only the
   * addresses of registers the firmware defines answer; a read covering any other address, even
   * one between two defined registers, answers 0x02, as some firmwares do.
   */
  reservedAddresses?: 'lenient' | 'strict';
  /**
   * Most registers one read may ask for (default 124, the vendor's limit); a larger read answers
   * 0x03. A smaller value plays a gateway stricter than its documentation.
   */
  maxReadWords?: number;
}

export type SimulatorMode = Pick<GatewaySimulatorOptions, 'absentUnits' | 'reservedAddresses'>;

/** Parses a demo/bench flag such as `silent,strict` into simulator options (unknown words throw). */
export function parseSimulatorMode(text: string | undefined): SimulatorMode {
  const mode: SimulatorMode = {};
  for (const word of (text ?? '').split(',').map((w) => w.trim()).filter(Boolean)) {
    if (word === 'silent') mode.absentUnits = 'silent';
    else if (word === 'strict') mode.reservedAddresses = 'strict';
    else throw new Error(`unknown simulator mode "${word}" (use silent, strict or both: silent,strict)`);
  }
  return mode;
}

function rangesUpTo(fw: Firmware, table: Record<string, Array<[number, number]>>): Array<[number, number]> {
  const idx = FIRMWARE_VERSIONS.indexOf(fw);
  return FIRMWARE_VERSIONS.slice(0, idx + 1).flatMap((v) => table[v] ?? []);
}

function covered(ranges: Array<[number, number]>, address: number, words: number): boolean {
  for (let a = address; a < address + words; a++) {
    if (!ranges.some(([lo, hi]) => a >= lo && a <= hi)) return false;
  }
  return true;
}

/** Address ranges holding exactly the given registers (adjacent registers form one range). */
function definedRanges(defs: readonly RegisterDef[]): Array<[number, number]> {
  const sorted = [...defs].sort((a, b) => a.address - b.address);
  const out: Array<[number, number]> = [];
  for (const d of sorted) {
    const last = out[out.length - 1];
    const end = d.address + d.words - 1;
    if (last && d.address <= last[1] + 1) last[1] = Math.max(last[1], end);
    else out.push([d.address, end]);
  }
  return out;
}

function wordMap(defs: readonly RegisterDef[], values: Record<string, number | string>): Map<number, number> {
  const map = new Map<number, number>();
  for (const def of defs) {
    const v = values[def.key];
    if (v === undefined) continue;
    encodeRegister(def, v).forEach((w, i) => map.set(def.address + i, w));
  }
  return map;
}

/** Starts a simulated gateway (Modbus TCP on loopback) serving the register map from a plant model. */
export async function startGatewaySimulator(opts: GatewaySimulatorOptions = {}): Promise<GatewaySimulator> {
  const plant = opts.plantModel ?? new PlantModel({ now: opts.now ?? Date.now, ...opts });
  const state = { firmware: opts.firmware ?? ('V2.9' as Firmware) };
  const strict = opts.reservedAddresses === 'strict';
  const statusDefs = [EMS_WORK_MODE, RATED_CHARGE_POWER, RATED_DISCHARGE_POWER];
  const strictRanges = (table: 'input' | 'holding', fw: Firmware) =>
    definedRanges([...PLANT_REGISTERS, ...statusDefs, ...Object.values(CONTROL_REGISTERS)].filter((r) => r.table === table && FIRMWARE_VERSIONS.indexOf(r.since) <= FIRMWARE_VERSIONS.indexOf(fw)));
  const strictInverter = definedRanges([...INVERTER_IDENTITY, ...INVERTER_REGISTERS]);
  const plantDefs = PLANT_REGISTERS;
  const inverterDefs = [...INVERTER_IDENTITY, ...INVERTER_REGISTERS];
  let cacheAt = -1;
  let plantWords = new Map<number, number>();
  const inverterWords = new Map<number, Map<number, number>>();
  const plantOverrides = new Map<string, number>();
  const withOverrides = (words: Map<number, number>) =>
    plantOverrides.size ? new Map([...words, ...wordMap(plantDefs, Object.fromEntries(plantOverrides))]) : words;
  const refresh = (force = false) => {
    const now = Date.now();
    if (!force && now - cacheAt < 100) return;
    cacheAt = now;
    plant.step();
    const r = plant.control.ratings;
    plantWords = new Map([...wordMap(plantDefs, plant.plantValues()), ...wordMap(statusDefs, { emsWorkMode: plant.control.emsWorkMode, ratedChargeW: r.chargeW, ratedDischargeW: r.dischargeW })]);
    for (const inv of plant.inverters) inverterWords.set(inv.unit, wordMap(inverterDefs, plant.inverterValues(inv)));
  };

  const server = await startModbusServer({
    host: opts.host,
    port: opts.port,
    maxReadWords: opts.maxReadWords,
    source(unit, table, address, words) {
      refresh();
      let ranges: Array<[number, number]>;
      let map: Map<number, number> | undefined;
      if (unit === PLANT_UNIT) {
        if (strict) ranges = strictRanges(table, state.firmware);
        else ranges = table === 'input' ? rangesUpTo(state.firmware, PLANT_INPUT_RANGES) : rangesUpTo(state.firmware, PLANT_HOLDING_RANGES);
        map = withOverrides(plantWords);
      } else {
        map = inverterWords.get(unit);
        // No device at this unit id: 0x0B (gateway target failed to respond), or no reply at all.
        if (!map) return opts.absentUnits === 'silent' ? 'silent' : null;
        ranges = table === 'input' ? (strict ? strictInverter : INVERTER_INPUT_RANGES) : [];
      }
      if (!covered(ranges, address, words)) return { exception: 0x02 };
      // The control registers are the plant's own (holding table), read as they are now.
      if (unit === PLANT_UNIT && table === 'holding') return plant.control.read(address, words);
      return Array.from({ length: words }, (_, i) => map!.get(address + i) ?? 0);
    },
    sink(unit, address, words) {
      if (unit !== PLANT_UNIT) {
        if (!plant.inverters.some((i) => i.unit === unit)) return opts.absentUnits === 'silent' ? 'silent' : 'no-device';
        return { exception: 0x02 };
      }
      const refused = plant.control.write(address, words, state.firmware);
      // The plant acts on the new values from this moment (the next read sees them).
      refresh(true);
      return refused === null ? null : { exception: refused };
    },
  });

  return {
    server,
    plant,
    host: server.host,
    port: server.port,
    plantOverrides,
    otherController(key, value) {
      plant.control.set(key, value);
      refresh(true);
    },
    plantChanged: () => refresh(true),
    get firmware() {
      return state.firmware;
    },
    set firmware(fw: Firmware) {
      state.firmware = fw;
    },
    close: () => server.close(),
  };
}
