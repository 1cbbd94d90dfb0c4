/**
 * A model of a home solar + battery plant for the gateway simulator: a sunny-day PV curve, a
 * noisy house load with a few smart loads, and a battery that charges from surplus and discharges
 * to cover the house within its capacity and reserve. Values use the register map's keys and units.
 */
import { zoneOffset } from '../../core/time-zone.js';
import { PlantControl } from './plant-control.js';

export interface InverterSpec {
  unit: number;
  model: string;
  serial: string;
  firmware: string;
  strings: number;
}

export interface PlantOptions {
  /** Simulated time source (epoch ms); the demo speeds it up. */
  now: () => number;
  capacityKwh?: number;
  reserveSoc?: number;
  initialSoc?: number;
  pvPeakW?: number;
  /** AC-coupled third-party inverter peak; 0 when there is none. */
  thirdPartyPeakW?: number;
  baseLoadW?: number;
  maxBatteryW?: number;
  /** Smart-port slots with a load attached and its running draw in watts. */
  smartLoads?: Array<{ slot: number; watts: number }>;
  inverters?: InverterSpec[];
  seed?: number;
  /** IANA zone whose wall clock the sun and loads follow; default the machine's own zone. */
  timeZone?: string;
  /** The plant's own EMS work mode (30003 while remote EMS is off): 0 (default) self-consumption, 9 a user's custom mode. */
  emsWorkMode?: number;
  /** The grid connection's rating in W (the bound of the export and import limits); default 15 kW. */
  gridRatingW?: number;
  /** The share (0–1) of the clear-sky sun that reaches the panels at instant t (clouds); default 1. */
  skyClear?: (t: number) => number;
}

export const DEFAULT_INVERTERS: InverterSpec[] = [
  { unit: 2, model: 'SigenStor EC 15.0 TP AU', serial: 'SIGSIM0000000001', firmware: 'V100R001C00SPC112B107G', strings: 6 },
];

export class PlantModel {
  readonly capacityKwh: number;
  readonly reserveSoc: number;
  readonly inverters: InverterSpec[];
  soc: number;
  private readonly opts: Required<Omit<PlantOptions, 'inverters' | 'timeZone' | 'emsWorkMode' | 'gridRatingW' | 'skyClear'>>;
  private readonly skyClear: (t: number) => number;
  /** The control registers (remote EMS, mode, limits, SOC settings) the plant obeys. */
  readonly control: PlantControl;
  private readonly offset: (t: number) => number;
  private lastT: number;
  private rng: number;
  private dayKey = '';
  readonly totals = { pv: 4210.55, consumed: 6120.4, gridImport: 2650.12, gridExport: 1890.3, batteryCharge: 1410.8, batteryDischarge: 1305.25, consumedToday: 0, pvToday: 0 };
  readonly smartEnergy = new Map<number, number>();
  /** The last step's flows in watts. */
  flows = { pvNative: 0, pvThirdParty: 0, load: 0, smart: 0, ev: 0, battery: 0, grid: 0 };

  constructor(opts: PlantOptions) {
    this.opts = {
      capacityKwh: 16.12,
      reserveSoc: 10,
      initialSoc: 55,
      pvPeakW: 8000,
      thirdPartyPeakW: 2000,
      baseLoadW: 650,
      maxBatteryW: 5000,
      smartLoads: [
        { slot: 1, watts: 1100 },
        { slot: 3, watts: 2400 },
      ],
      seed: 42,
      ...opts,
    };
    this.capacityKwh = this.opts.capacityKwh;
    this.reserveSoc = this.opts.reserveSoc;
    this.inverters = opts.inverters ?? DEFAULT_INVERTERS;
    this.offset = opts.timeZone ? zoneOffset(opts.timeZone) : (t) => -new Date(t).getTimezoneOffset() * 60_000;
    this.soc = this.opts.initialSoc;
    this.control = new PlantControl(
      { chargeW: this.opts.maxBatteryW, dischargeW: this.opts.maxBatteryW, pvW: this.opts.pvPeakW, gridW: opts.gridRatingW ?? 15_000 },
      { backup: this.reserveSoc, chargeCutoff: 100, dischargeCutoff: 5 },
      opts.emsWorkMode ?? 0,
    );
    this.skyClear = opts.skyClear ?? (() => 1);
    this.rng = this.opts.seed;
    this.lastT = this.opts.now();
    for (const s of this.opts.smartLoads) this.smartEnergy.set(s.slot, 120 + s.slot * 11.5);
    this.step();
  }

  private random(): number {
    // mulberry32: deterministic noise for a given seed
    this.rng = (this.rng + 0x6d2b79f5) | 0;
    let t = this.rng;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Advances the model to the current simulated time. */
  step(): void {
    const t = this.opts.now();
    const dtH = Math.max(0, t - this.lastT) / 3_600_000;
    this.lastT = t;
    // The wall clock of the plant's zone, read as UTC fields.
    const wall = new Date(t + this.offset(t));
    const key = wall.toISOString().slice(0, 10);
    if (key !== this.dayKey) {
      this.dayKey = key;
      this.totals.consumedToday = 0;
      this.totals.pvToday = 0;
    }
    const hour = wall.getUTCHours() + wall.getUTCMinutes() / 60 + wall.getUTCSeconds() / 3600;
    const sun = Math.max(0, Math.sin((Math.PI * (hour - 6)) / 13)) ** 1.3;
    const cloud = (0.9 + 0.1 * this.random()) * Math.min(1, Math.max(0, this.skyClear(t)));
    const pvNative = Math.round(this.opts.pvPeakW * sun * cloud);
    const pvThirdParty = Math.round(this.opts.thirdPartyPeakW * sun * cloud);
    let smart = 0;
    const daytime = hour >= 10 && hour < 16;
    const smartNow = new Map<number, number>();
    for (const s of this.opts.smartLoads) {
      const on = s.slot === 1 ? daytime : hour >= 11 && hour < 14;
      const w = on ? Math.round(s.watts * (0.95 + 0.1 * this.random())) : 0;
      smartNow.set(s.slot, w);
      smart += w;
      this.smartEnergy.set(s.slot, (this.smartEnergy.get(s.slot) ?? 0) + (w * dtH) / 1000);
    }
    const evening = hour >= 17 && hour < 22 ? 900 : 0;
    const load = Math.round(this.opts.baseLoadW + evening + 250 * this.random() + smart);
    const { battery, pvNative: pvNativeOut, grid } = this.dispatch(load, pvNative, pvThirdParty);
    this.soc = Math.min(100, Math.max(0, this.soc + (battery * dtH) / 1000 / this.capacityKwh * 100));
    this.totals.pv += ((pvNativeOut + pvThirdParty) * dtH) / 1000;
    this.totals.pvToday += ((pvNativeOut + pvThirdParty) * dtH) / 1000;
    this.totals.consumed += (load * dtH) / 1000;
    this.totals.consumedToday += (load * dtH) / 1000;
    if (grid > 0) this.totals.gridImport += (grid * dtH) / 1000;
    else this.totals.gridExport += (-grid * dtH) / 1000;
    if (battery > 0) this.totals.batteryCharge += (battery * dtH) / 1000;
    else this.totals.batteryDischarge += (-battery * dtH) / 1000;
    this.flows = { pvNative: pvNativeOut, pvThirdParty, load, smart, ev: 0, battery, grid };
    this.smartNow = smartNow;
  }

  private smartNow = new Map<number, number>();

  /**
   * The battery's and the grid's share of this step, as the control registers say: with remote
   * EMS on, mode 1 stands by, 3/4 charge (from the grid when PV falls short) up to the charge limit
   * and cut-off, 5/6 discharge down to the discharge cut-off; otherwise (and in modes 0/2) the
   * battery follows the surplus. The charge and discharge limits act in every mode (V2.7+: a
   * discharge limit of 0 holds the battery), and PV is curtailed to keep the export within its cap.
   */
  private dispatch(load: number, pvNative: number, pvThirdParty: number): { battery: number; pvNative: number; grid: number } {
    const c = this.control.values;
    const maxCharge = Math.min(this.opts.maxBatteryW, c.chargeLimitW);
    const maxDischarge = Math.min(this.opts.maxBatteryW, c.dischargeLimitW);
    const canCharge = this.soc < c.chargeCutoffSoc;
    const floor = Math.max(this.reserveSoc, c.dischargeCutoffSoc, c.backupSoc);
    const canDischarge = this.soc > floor;
    const surplus = pvNative + pvThirdParty - load;
    const mode = this.control.remote ? c.controlMode : 2;
    let battery = 0;
    if (mode === 1) battery = 0;
    else if (mode === 3 || mode === 4) battery = canCharge ? maxCharge : 0;
    else if (mode === 5 || mode === 6) battery = canDischarge ? -maxDischarge : 0;
    else if (surplus > 0 && canCharge) battery = Math.min(surplus, maxCharge);
    else if (surplus < 0 && canDischarge) battery = Math.max(surplus, -maxDischarge);
    battery = Math.round(battery) + 0; // never -0
    let pv = pvNative;
    let grid = load - pv - pvThirdParty + battery;
    // The grid-point export cap: the plant's own PV is curtailed to keep the export within it.
    if (grid < -c.exportLimitW) {
      const cut = Math.min(pv, -c.exportLimitW - grid);
      pv -= cut;
      grid += cut;
    }
    return { battery, pvNative: Math.round(pv), grid: Math.round(grid) };
  }

  /** Plant register values keyed as in the register map, in decoded units. */
  plantValues(): Record<string, number> {
    const f = this.flows;
    const v: Record<string, number> = {
      gridPower: f.grid,
      soc: Math.round(this.soc * 10) / 10,
      plantActivePower: f.pvNative - f.battery,
      pvPower: f.pvNative,
      batteryPowerGross: f.battery + 25,
      runningState: 1,
      energyChargeable: round2((this.capacityKwh * (100 - this.soc)) / 100),
      energyRemaining: round2((this.capacityKwh * this.soc) / 100),
      ratedCapacity: this.capacityKwh,
      soh: 98.7,
      lifetimePv: round2(this.totals.pv),
      consumedToday: round2(this.totals.consumedToday),
      lifetimeConsumed: round2(this.totals.consumed),
      thirdPartyPvPower: f.pvThirdParty,
      lifetimeBatteryCharge: round2(this.totals.batteryCharge),
      lifetimeBatteryDischarge: round2(this.totals.batteryDischarge),
      lifetimeGridImport: round2(this.totals.gridImport),
      lifetimeGridExport: round2(this.totals.gridExport),
      pvToday: round2(this.totals.pvToday),
      generalLoadPower: f.load - f.smart - f.ev,
      totalLoadPower: f.load,
      reserveSoc: this.control.values.backupSoc,
      chargeCutoffSoc: this.control.values.chargeCutoffSoc,
      dischargeCutoffSoc: this.control.values.dischargeCutoffSoc,
    };
    for (let n = 1; n <= 24; n++) {
      v[`smartLoadEnergy.${n}`] = round2(this.smartEnergy.get(n) ?? 0);
      v[`smartLoadPower.${n}`] = this.smartNow.get(n) ?? 0;
    }
    return v;
  }

  /** One inverter's register values (it carries an equal share of the plant). */
  inverterValues(spec: InverterSpec): Record<string, number | string> {
    const share = 1 / this.inverters.length;
    const dc = Math.round(this.flows.pvNative * share);
    const v: Record<string, number | string> = {
      model: spec.model,
      serial: spec.serial,
      firmware: spec.firmware,
      runningState: 1,
      activePower: Math.round((this.flows.pvNative - this.flows.battery) * share),
      soc: Math.round(this.soc * 10) / 10,
      soh: 98.7,
      temperature: Math.round((31 + dc / 800) * 10) / 10,
      stringCount: spec.strings,
      dcPower: dc,
    };
    for (let i = 1; i <= 16; i++) {
      const active = i <= spec.strings;
      const voltage = active ? (dc > 0 ? 380 + i * 3.1 : 0) : 0;
      const current = active && voltage > 0 ? Math.round((dc / spec.strings / voltage) * 100) / 100 : 0;
      v[`stringVoltage.${i}`] = Math.round(voltage * 10) / 10;
      v[`stringCurrent.${i}`] = current;
    }
    return v;
  }
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
