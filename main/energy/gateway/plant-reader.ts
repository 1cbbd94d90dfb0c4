import { BlockReader, ModbusException, type LearnedPlan, type ReadFn, type Values } from './block-reader.js';
import { TransportError } from './connection.js';
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

/** What a PlantReader learnt about one gateway, as plain data (see gateway-memory.ts). */
export interface PlantKnowledge {
  firmware: Firmware;
  plant: LearnedPlan;
  inverters: Array<InverterIdentity & { plan?: LearnedPlan }>;
}

/**
 * Reads the whole plant over one connection. The plant block plan is learnt on the first reads
 * (and can be adopted from an earlier run); inverters are found one unit id at a time by `probe`,
 * between polls, and read from then on.
 */
export class PlantReader {
  private readonly plant = new BlockReader(PLANT_REGISTERS);
  private readonly inverters = new Map<number, { identity: InverterIdentity; reader: BlockReader }>();
  /** Bumped when the set of inverters changes. */
  private inverterVersion = 0;

  /** Forget everything learnt on the previous connection. */
  reset(): void {
    this.plant.reset();
    this.inverters.clear();
    this.inverterVersion++;
  }

  /** Forget only the plant's block plan (firmware changed). */
  resetPlant(): void {
    this.plant.reset();
  }

  get inverterCount(): number {
    return this.inverters.size;
  }

  /** Unit ids of the inverters read each poll. */
  get inverterUnits(): number[] {
    return [...this.inverters.keys()];
  }

  /** Changes whenever what `knowledge()` would return changes. */
  get version(): string {
    return `${this.plant.version}.${this.inverterVersion}.${[...this.inverters.values()].map((i) => i.reader.version).join('.')}`;
  }

  knowledge(): PlantKnowledge {
    return {
      firmware: detectFirmware(this.plant.unsupported),
      plant: this.plant.learned(),
      inverters: [...this.inverters.values()].map((i) => ({ ...i.identity, plan: i.reader.learned() })),
    };
  }

  /** Adopts what an earlier run learnt about this gateway; parts that do not fit are ignored. */
  adopt(k: PlantKnowledge): void {
    this.plant.adopt(k.plant);
    for (const inv of k.inverters) {
      if (!Number.isInteger(inv.unitId) || inv.unitId < 1 || inv.unitId > 246) continue;
      const reader = new BlockReader(INVERTER_REGISTERS);
      if (inv.plan) reader.adopt(inv.plan);
      this.inverters.set(inv.unitId, { identity: { unitId: inv.unitId, model: inv.model, serial: inv.serial, firmware: inv.firmware }, reader });
    }
    this.inverterVersion++;
  }

  addInverter(identity: InverterIdentity): void {
    const known = this.inverters.get(identity.unitId);
    if (known && known.identity.serial === identity.serial && known.identity.model === identity.model) return;
    this.inverters.set(identity.unitId, { identity, reader: new BlockReader(INVERTER_REGISTERS) });
    this.inverterVersion++;
  }

  removeInverter(unitId: number): void {
    if (this.inverters.delete(unitId)) this.inverterVersion++;
  }

  /**
   * Probes one unit id for an inverter (identity read). Null when no device answers there: an
   * exception (0x0B and the like) or no reply within `timeoutMs`. A closed link propagates.
   */
  async probe(read: ReadFn, unit: number, timeoutMs: number): Promise<InverterIdentity | null> {
    const identity = new BlockReader(INVERTER_IDENTITY);
    try {
      const { values } = await identity.read(read, unit, { timeoutMs });
      const model = values.model;
      if (typeof model === 'string' && model.length > 0) return { unitId: unit, model, serial: String(values.serial ?? ''), firmware: String(values.firmware ?? '') };
      return null;
    } catch (err) {
      if (err instanceof ModbusException || (err instanceof TransportError && err.timedOut)) return null;
      throw err;
    }
  }

  /** Probes unit ids in [from, to] (never 0 or 247) in turn and keeps what it finds. */
  async enumerate(read: ReadFn, from: number, to: number, timeoutMs = 1000): Promise<InverterIdentity[]> {
    const found: InverterIdentity[] = [];
    for (let unit = Math.max(1, from); unit <= Math.min(246, to); unit++) {
      const inv = await this.probe(read, unit, timeoutMs);
      if (inv) {
        found.push(inv);
        this.addInverter(inv);
      } else this.removeInverter(unit);
    }
    return found;
  }

  /** Reads the plant only (the first reading after a connect is published without waiting for inverters). */
  async readPlant(read: ReadFn): Promise<GatewayReading & { failed: string[] }> {
    const { values: plant, failed } = await this.plant.read(read, PLANT_UNIT);
    return { plant, inverters: [], firmware: detectFirmware(this.plant.unsupported), failed };
  }

  /**
   * Reads the plant, then each known inverter. An inverter that stops answering (timeout or an
   * exception on every block) is dropped from the set and reported in `lost`, so a gone device never
   * fails the poll; a closed link does.
   */
  async read(read: ReadFn, inverterTimeoutMs?: number): Promise<GatewayReading & { failed: string[]; lost: number[] }> {
    const reading = await this.readPlant(read);
    const inverters: InverterReading[] = [];
    const lost: number[] = [];
    for (const { identity, reader } of this.inverters.values()) {
      try {
        const { values, failed } = await reader.read(read, identity.unitId, inverterTimeoutMs === undefined ? undefined : { timeoutMs: inverterTimeoutMs });
        if (failed.length && Object.values(values).every((v) => v === null || v === undefined)) throw new ModbusException(0x0b);
        inverters.push({ ...identity, values });
      } catch (err) {
        if (!(err instanceof ModbusException || (err instanceof TransportError && err.timedOut))) throw err;
        lost.push(identity.unitId);
      }
    }
    for (const unit of lost) this.removeInverter(unit);
    return { ...reading, inverters, lost };
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
