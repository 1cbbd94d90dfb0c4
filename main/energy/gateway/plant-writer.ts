import { AppError } from '../../core/errors.js';
import type { ReadFn } from './block-reader.js';
import { CONTROL_MODES, CONTROL_REGISTERS, EMS_WORK_MODE, PLANT_START_STOP, RATED_CHARGE_POWER, RATED_DISCHARGE_POWER, type ControlKey, type ControlValues } from './control-registers.js';
import type { WriteFn } from './connection.js';
import { decodeRegister, encodeRegister } from './decode.js';
import { PLANT_UNIT, type RegisterDef } from './registers.js';

/** The user's own bounds on what may be written (the control settings). */
export interface WriteBounds {
  /** Most charging / discharging power the user allows (W). */
  maxChargeW: number;
  maxDischargeW: number;
  /** Lowest SOC the user lets a plan take the battery to (%). */
  minSoc: number;
}

/** What the plant says it can do: the ESS's rated charging and discharging power (30068 / 30070). */
export interface PlantRatings {
  chargeW: number;
  dischargeW: number;
}

/** One checked write: what was written and what the plant read back. */
export interface WriteResult {
  key: ControlKey;
  address: number;
  value: number;
  words: number[];
  readBack: number;
}

const MODE_VALUES = new Set<number>(Object.values(CONTROL_MODES));

/** 409 when the value read back is not the value written (the plant or someone else changed it). */
export class ReadBackMismatch extends AppError {
  constructor(readonly result: WriteResult) {
    super(409, 'read_back_mismatch', `${result.key} (${result.address}): wrote ${result.value}, read back ${result.readBack}`);
  }
}

/**
 * The one write path to the plant: only the control registers of the allow-list
 * (control-registers.ts; never 40000), each value checked against the plant's rated limits (read
 * from the plant) and the user's bounds before it is written, every write read back (FC 0x03).
 */
export class PlantWriter {
  private ratingsRead: PlantRatings | null = null;

  constructor(
    private readonly link: { read: ReadFn; write: WriteFn },
    private readonly bounds: () => WriteBounds,
  ) {}

  /** The plant's rated charging / discharging power, read once per connection. */
  async ratings(): Promise<PlantRatings> {
    if (!this.ratingsRead) {
      const [charge, discharge] = await Promise.all([this.readInput(RATED_CHARGE_POWER), this.readInput(RATED_DISCHARGE_POWER)]);
      this.ratingsRead = { chargeW: charge, dischargeW: discharge };
    }
    return this.ratingsRead;
  }

  /** 30003, the EMS work mode (7 while remote EMS is on). */
  emsWorkMode(): Promise<number> {
    return this.readInput(EMS_WORK_MODE);
  }

  /** The current values of the given control registers (one read each, FC 0x03). */
  async readControl(keys: readonly ControlKey[]): Promise<ControlValues> {
    const out: ControlValues = {};
    for (const key of keys) out[key] = await this.readHolding(CONTROL_REGISTERS[key]);
    return out;
  }

  /**
   * Checks `value` for `key` (400 naming the field when out of range), writes it to unit 247 and
   * reads it back; throws ReadBackMismatch when the plant holds something else.
   */
  async write(key: ControlKey, value: number): Promise<WriteResult> {
    const def = CONTROL_REGISTERS[key] as RegisterDef | undefined;
    // The allow-list is the only way in: a key not in it, or an address that is plant start/stop, is refused.
    if (!def || def.address === PLANT_START_STOP || def.table !== 'holding') throw new AppError(400, 'not_allowed', `${String(key)}: not a register this program writes`, { field: String(key) });
    await this.check(key, value);
    const words = encodeRegister(def, value);
    await this.link.write(PLANT_UNIT, def.address, words);
    const readBack = await this.readHolding(def);
    const result: WriteResult = { key, address: def.address, value, words, readBack };
    if (readBack !== value) throw new ReadBackMismatch(result);
    return result;
  }

  private async check(key: ControlKey, value: number): Promise<void> {
    const refuse = (why: string) => {
      throw new AppError(400, 'out_of_range', `${key}: ${why}`, { field: key });
    };
    if (!Number.isFinite(value) || value < 0) refuse('must be a number, 0 or more');
    const b = this.bounds();
    switch (key) {
      case 'remoteEms':
        if (value !== 0 && value !== 1) refuse('must be 0 or 1');
        return;
      case 'controlMode':
        if (!MODE_VALUES.has(value)) refuse('must be a remote EMS control mode 0–6');
        return;
      case 'chargeLimitW': {
        const { chargeW } = await this.ratings();
        if (!Number.isInteger(value) || value > chargeW) refuse(`must be whole watts within the plant's rated charging power (${chargeW} W)`);
        if (value > b.maxChargeW) refuse(`must not exceed your charging bound (${b.maxChargeW} W)`);
        return;
      }
      case 'dischargeLimitW': {
        const { dischargeW } = await this.ratings();
        if (!Number.isInteger(value) || value > dischargeW) refuse(`must be whole watts within the plant's rated discharging power (${dischargeW} W)`);
        if (value > b.maxDischargeW) refuse(`must not exceed your discharging bound (${b.maxDischargeW} W)`);
        return;
      }
      case 'pvLimitW':
      case 'exportLimitW':
      case 'importLimitW':
        if (!Number.isInteger(value) || value > 0xffffffff) refuse('must be whole watts');
        return;
      case 'backupSoc':
      case 'chargeCutoffSoc':
      case 'dischargeCutoffSoc':
        if (value > 100 || Math.round(value * 10) !== value * 10) refuse('must be a percentage 0–100 in steps of 0.1');
        if (key === 'dischargeCutoffSoc' && value < b.minSoc) refuse(`must not be below your lowest SOC (${b.minSoc} %)`);
        return;
    }
  }

  private async readHolding(def: RegisterDef): Promise<number> {
    return Number(decodeRegister(def, await this.link.read('holding', PLANT_UNIT, def.address, def.words)));
  }

  private async readInput(def: RegisterDef): Promise<number> {
    return Number(decodeRegister(def, await this.link.read('input', PLANT_UNIT, def.address, def.words)));
  }
}
