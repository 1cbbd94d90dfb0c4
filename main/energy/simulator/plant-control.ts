/**
 * The control registers of the simulated plant (holding table on unit 247), as the vendor's
 * protocol V2.5–V2.9 describes them (../shared/reference/gateway-modbus.md, "Status and control
 * registers"): remote EMS enable, control mode, the power limits in kW×1000, the SOC settings in
 * ‰ (V2.7+). A value outside its range is refused with ILLEGAL DATA VALUE (0x03), an address that
 * is not a control register (or half of a two-word one) with ILLEGAL DATA ADDRESS (0x02). Plant
 * start/stop (40000) is accepted as the real plant does and recorded, so tests can assert it never is.
 */
import { decodeInteger, encodeRegister } from '../gateway/decode.js';
import { CONTROL_REGISTERS, PLANT_START_STOP, type ControlKey } from '../gateway/control-registers.js';
import { firmwareAtLeast, type Firmware, type RegisterDef } from '../gateway/registers.js';

export const ILLEGAL_DATA_ADDRESS = 0x02;
export const ILLEGAL_DATA_VALUE = 0x03;

export interface PlantRatings {
  /** Rated charging / discharging power of the ESS (W). */
  chargeW: number;
  dischargeW: number;
  /** PV rated power (W): the bound of the PV limit. */
  pvW: number;
  /** The grid connection's rating (W): the bound of the export and import limits. */
  gridW: number;
}

/** One write the plant received (any unit, any address), for tests. */
export interface ReceivedWrite {
  unit: number;
  address: number;
  words: number[];
  /** True when the plant refused it (exception). */
  refused: boolean;
  /** Who wrote it: this program over Modbus, or the test hook playing another controller. */
  by: 'modbus' | 'other';
}

const DEFS: RegisterDef[] = Object.values(CONTROL_REGISTERS);
const BY_ADDRESS = new Map(DEFS.map((d) => [d.address, d]));

export class PlantControl {
  /** The raw register values (decoded units: W, %, enum). */
  readonly values: Record<ControlKey, number>;
  /** The plant's own EMS work mode (30003 when remote EMS is off): 0 self-consumption by default, 9 a user's custom mode. */
  ownMode: number;
  readonly writes: ReceivedWrite[] = [];
  /** How many times 40000 (plant start/stop) was written. */
  startStopWrites = 0;

  constructor(
    readonly ratings: PlantRatings,
    soc: { backup: number; chargeCutoff: number; dischargeCutoff: number },
    ownMode = 0,
  ) {
    this.ownMode = ownMode;
    this.values = {
      remoteEms: 0,
      controlMode: 2,
      chargeLimitW: ratings.chargeW,
      dischargeLimitW: ratings.dischargeW,
      pvLimitW: ratings.pvW,
      exportLimitW: ratings.gridW,
      importLimitW: ratings.gridW,
      backupSoc: soc.backup,
      chargeCutoffSoc: soc.chargeCutoff,
      dischargeCutoffSoc: soc.dischargeCutoff,
    };
  }

  /** 30003: 7 while remote EMS is on, else the plant's own mode. */
  get emsWorkMode(): number {
    return this.values.remoteEms === 1 ? 7 : this.ownMode;
  }

  get remote(): boolean {
    return this.values.remoteEms === 1;
  }

  /** The holding words from `address` (0 for reserved addresses inside the table). */
  read(address: number, words: number): number[] {
    const map = new Map<number, number>();
    for (const d of DEFS) encodeRegister(d, this.values[d.key as ControlKey]).forEach((w, i) => map.set(d.address + i, w));
    return Array.from({ length: words }, (_, i) => map.get(address + i) ?? 0);
  }

  /**
   * A write of `words` from `address` (FC 0x06 one word, 0x10 several): all or nothing. Returns the
   * exception code that refuses it, or null when it was executed.
   */
  write(address: number, words: number[], firmware: Firmware, by: ReceivedWrite['by'] = 'modbus'): number | null {
    const refusal = this.check(address, words, firmware);
    this.writes.push({ unit: 247, address, words: [...words], refused: refusal !== null, by });
    if (refusal !== null) return refusal;
    if (address === PLANT_START_STOP) {
      this.startStopWrites++;
      return null;
    }
    for (let i = 0; i < words.length; ) {
      const d = BY_ADDRESS.get(address + i)!;
      const raw = decodeInteger(d.type as 'u16' | 'u32', words.slice(i, i + d.words));
      this.set(d.key as ControlKey, raw / d.divisor);
      i += d.words;
    }
    return null;
  }

  /** The plant changes a value by itself (the export limit seen reverting) or another controller does. */
  set(key: ControlKey, value: number): void {
    const wasRemote = this.values.remoteEms === 1;
    this.values[key] = value;
    // Remote EMS off: the plant falls back to its own mode; a user's custom mode is not restored by itself.
    if (key === 'remoteEms' && wasRemote && value === 0 && this.ownMode === 9) this.ownMode = 0;
  }

  /** Test hook: the plant puts the export limit back to its own value, as public reports saw it do. */
  revertExportLimit(): void {
    this.set('exportLimitW', this.ratings.gridW);
  }

  private check(address: number, words: number[], firmware: Firmware): number | null {
    if (address === PLANT_START_STOP) return words.length === 1 && (words[0] === 0 || words[0] === 1) ? null : ILLEGAL_DATA_VALUE;
    for (let i = 0; i < words.length; ) {
      const d = BY_ADDRESS.get(address + i);
      if (!d || i + d.words > words.length || !firmwareAtLeast(firmware, d.since)) return ILLEGAL_DATA_ADDRESS;
      const raw = decodeInteger(d.type as 'u16' | 'u32', words.slice(i, i + d.words));
      if (!this.inRange(d.key as ControlKey, raw, firmware)) return ILLEGAL_DATA_VALUE;
      i += d.words;
    }
    return null;
  }

  private inRange(key: ControlKey, raw: number, firmware: Firmware): boolean {
    const r = this.ratings;
    switch (key) {
      case 'remoteEms':
        return raw === 0 || raw === 1;
      case 'controlMode':
        return (raw >= 0 && raw <= 6) || (raw === 8 && firmwareAtLeast(firmware, 'V2.9'));
      case 'chargeLimitW':
        return raw <= r.chargeW;
      case 'dischargeLimitW':
        return raw <= r.dischargeW;
      case 'pvLimitW':
        return raw <= r.pvW;
      case 'exportLimitW':
      case 'importLimitW':
        return raw <= r.gridW;
      case 'backupSoc':
      case 'chargeCutoffSoc':
      case 'dischargeCutoffSoc':
        return raw <= 1000;
    }
  }
}
