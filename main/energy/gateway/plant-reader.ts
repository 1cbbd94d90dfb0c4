import { BlockReader, type ReadFn, type Values } from './block-reader.js';
import { INVERTER_IDENTITY, INVERTER_REGISTERS, PLANT_REGISTERS, PLANT_UNIT, VERSION_PROBES, type Firmware } from './registers.js';

export interface InverterIdentity {
  unitId: number;
  model: string;
  serial: string;
  firmware: string;
}

export interface InverterReading extends InverterIdentity {
  values: Values;
}

/** One poll's raw result: plant registers by key, and each enumerated inverter's registers. */
export interface GatewayReading {
  plant: Values;
  inverters: InverterReading[];
  /** Protocol version inferred from which probe registers answered. */
  firmware: Firmware;
}

/**
 * Reads the whole plant over one connection. The first read learns which registers the firmware
 * lacks; `enumerate` finds inverters by probing unit ids for a model read.
 */
export class PlantReader {
  private readonly plant = new BlockReader(PLANT_REGISTERS);
  private readonly inverterReaders = new Map<number, BlockReader>();
  private inverters: InverterIdentity[] = [];

  /** Forget everything learnt on the previous connection. */
  reset(): void {
    this.plant.reset();
    this.inverterReaders.clear();
    this.inverters = [];
  }

  get inverterCount(): number {
    return this.inverters.length;
  }

  /** Probes unit ids in [from, to] (never 0 or 247) for an inverter model read. */
  async enumerate(read: ReadFn, from: number, to: number): Promise<InverterIdentity[]> {
    const found: InverterIdentity[] = [];
    const identity = new BlockReader(INVERTER_IDENTITY);
    for (let unit = Math.max(1, from); unit <= Math.min(246, to); unit++) {
      try {
        const { values } = await identity.read(read, unit);
        const model = values.model;
        if (typeof model === 'string' && model.length > 0) {
          found.push({ unitId: unit, model, serial: String(values.serial ?? ''), firmware: String(values.firmware ?? '') });
        }
      } catch {
        // No device answers at this unit id (exception 0x0B or a timeout): not an inverter.
      }
      identity.reset();
    }
    this.inverters = found;
    this.inverterReaders.clear();
    for (const inv of found) this.inverterReaders.set(inv.unitId, new BlockReader(INVERTER_REGISTERS));
    return found;
  }

  async read(read: ReadFn): Promise<GatewayReading & { failed: string[] }> {
    const { values: plant, failed } = await this.plant.read(read, PLANT_UNIT);
    const inverters: InverterReading[] = [];
    for (const inv of this.inverters) {
      const reader = this.inverterReaders.get(inv.unitId)!;
      const { values } = await reader.read(read, inv.unitId);
      inverters.push({ ...inv, values });
    }
    return { plant, inverters, firmware: detectFirmware(this.plant.unsupported), failed };
  }
}

const KEY_BY_ADDRESS = new Map(PLANT_REGISTERS.map((r) => [r.address, r.key]));

/** The newest probe register that is not unsupported gives the protocol version. */
export function detectFirmware(unsupported: ReadonlySet<string>): Firmware {
  for (const [address, version] of VERSION_PROBES) {
    const key = KEY_BY_ADDRESS.get(address)!;
    if (!unsupported.has(key)) return version;
  }
  return 'V1.8';
}
