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
const PLANT_HOLDING_RANGES: Partial<Record<Firmware, Array<[number, number]>>> = { 'V2.6': [[40000, 40048]] };
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
  close(): Promise<void>;
}

export interface GatewaySimulatorOptions extends Partial<PlantOptions> {
  firmware?: Firmware;
  host?: string;
  port?: number;
  /** A plant to serve (for example one kept across a simulated restart). */
  plantModel?: PlantModel;
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
  const plantDefs = PLANT_REGISTERS;
  const inverterDefs = [...INVERTER_IDENTITY, ...INVERTER_REGISTERS];
  let cacheAt = -1;
  let plantWords = new Map<number, number>();
  const inverterWords = new Map<number, Map<number, number>>();
  const refresh = () => {
    const now = Date.now();
    if (now - cacheAt < 100) return;
    cacheAt = now;
    plant.step();
    plantWords = wordMap(plantDefs, plant.plantValues());
    for (const inv of plant.inverters) inverterWords.set(inv.unit, wordMap(inverterDefs, plant.inverterValues(inv)));
  };

  const server = await startModbusServer({
    host: opts.host,
    port: opts.port,
    source(unit, table, address, words) {
      refresh();
      let ranges: Array<[number, number]>;
      let map: Map<number, number> | undefined;
      if (unit === PLANT_UNIT) {
        ranges = table === 'input' ? rangesUpTo(state.firmware, PLANT_INPUT_RANGES) : rangesUpTo(state.firmware, PLANT_HOLDING_RANGES);
        map = plantWords;
      } else {
        map = inverterWords.get(unit);
        if (!map) return null; // no device at this unit id: gateway target failed to respond
        ranges = table === 'input' ? INVERTER_INPUT_RANGES : [];
      }
      if (!covered(ranges, address, words)) return { exception: 0x02 };
      return Array.from({ length: words }, (_, i) => map!.get(address + i) ?? 0);
    },
  });

  return {
    server,
    plant,
    host: server.host,
    port: server.port,
    get firmware() {
      return state.firmware;
    },
    set firmware(fw: Firmware) {
      state.firmware = fw;
    },
    close: () => server.close(),
  };
}
