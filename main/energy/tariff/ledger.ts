import type { LiveState } from '../live-state.js';
import { createLocalMinuteCache, minuteOf, type LocalMinute } from './local-time.js';
import { ratesAt, type RatesAt, type TariffConfig } from './windows.js';

/** Two polls further apart than this are a gap: the time between them is not integrated. */
export const MAX_GAP_MS = 15 * 60_000;

/** The powers a ledger integrates (watts, signed as in the snapshot; null = unknown, skipped). */
export interface PowerSample {
  t: number;
  solar: number | null;
  home: number | null;
  /** Positive on import, negative on export. */
  grid: number | null;
  /** Positive charging, negative discharging. */
  battery: number | null;
}

/** A poll's power flows as the ledger integrates them. */
export const powerSampleOf = (state: Pick<LiveState, 'power'>, t: number): PowerSample => ({ t, solar: state.power.solar, home: state.power.home, grid: state.power.grid, battery: state.power.battery });

/**
 * Zero-draw credit state of a day:
 * - `off`: no zero-draw credit configured;
 * - `notStarted`: the window has not begun;
 * - `soFar`: inside the window and import is still within the tolerance — the credit can still be
 *   lost, so it is NOT counted yet (`zeroDrawMet` false, `zeroDrawCredit` 0);
 * - `met`: the window has ended with import within the tolerance (credit counted);
 * - `missed`: import inside the window went past the tolerance;
 * - `noData`: the window ended but polls covered less than 90% of it, so no credit is claimed.
 */
export type ZeroDrawStatus = 'off' | 'notStarted' | 'soFar' | 'met' | 'missed' | 'noData';

/** The energy of one period (a local day, a week…), kWh. */
export interface EnergyKwh {
  solarKwh: number;
  homeKwh: number;
  importKwh: number;
  exportKwh: number;
  batteryChargeKwh: number;
  batteryDischargeKwh: number;
}

/** Unrounded running totals of one local day. */
export interface DayTotals extends EnergyKwh {
  date: string;
  importCost: number;
  feedIn: number;
  superExportKwh: number;
  superExportCredit: number;
  zeroDrawImportKwh: number;
  zeroDrawCoveredMs: number;
  /** Milliseconds of the day covered by integrated polls. */
  coveredMs: number;
}

export interface DayCost {
  importCost: number;
  feedIn: number;
  superExportCredit: number;
  zeroDrawCredit: number;
  zeroDrawMet: boolean;
  zeroDrawStatus: ZeroDrawStatus;
  supply: number;
  /** Credits minus costs: positive means the day earned money. */
  net: number;
}

export const emptyDay = (date: string): DayTotals => ({
  date,
  solarKwh: 0,
  homeKwh: 0,
  importKwh: 0,
  exportKwh: 0,
  batteryChargeKwh: 0,
  batteryDischargeKwh: 0,
  importCost: 0,
  feedIn: 0,
  superExportKwh: 0,
  superExportCredit: 0,
  zeroDrawImportKwh: 0,
  zeroDrawCoveredMs: 0,
  coveredMs: 0,
});

/**
 * The zero-draw state of `day` as seen at local minute `now` (null once the day is over).
 * Coverage below 90% of the window means unknown import, so no credit.
 */
export function zeroDrawStatus(t: TariffConfig, day: DayTotals, now: LocalMinute | null): ZeroDrawStatus {
  if (!t.zeroDraw.enabled) return 'off';
  const s = minuteOf(t.zeroDraw.start);
  const e = minuteOf(t.zeroDraw.end);
  const within = day.zeroDrawImportKwh <= t.zeroDraw.toleranceKwh + 1e-9;
  const over = now === null || now.date !== day.date || now.minute >= e;
  if (!within) return 'missed';
  if (!over) return now.minute < s ? 'notStarted' : 'soFar';
  return day.zeroDrawCoveredMs >= 0.9 * (e - s) * 60_000 ? 'met' : 'noData';
}

/** The money side of a day (unrounded). `now` is the current local minute, or null for a closed day. */
export function dayCost(t: TariffConfig, day: DayTotals, now: LocalMinute | null): DayCost {
  const status = zeroDrawStatus(t, day, now);
  const zeroDrawCredit = status === 'met' ? t.zeroDraw.credit : 0;
  const supply = t.dailySupplyCharge;
  return {
    importCost: day.importCost,
    feedIn: day.feedIn,
    superExportCredit: day.superExportCredit,
    zeroDrawCredit,
    zeroDrawMet: status === 'met',
    zeroDrawStatus: status,
    supply,
    net: day.feedIn + day.superExportCredit + zeroDrawCredit - day.importCost - supply,
  };
}

/**
 * Integrates polls into per-local-day energy and money. Each poll's reading holds until the next
 * poll (sample-and-hold); the interval is split at local minute boundaries so that day changes and
 * time-of-use windows (HH:MM) are exact, DST included. Gaps over 15 minutes are skipped.
 */
export class DayLedger {
  private day: DayTotals | null = null;
  private last: PowerSample | null = null;
  private readonly local = createLocalMinuteCache();
  /** Rates of the last local minute seen, for the same tariff object (polls mostly share a minute). */
  private rates: { at: LocalMinute; tariff: TariffConfig; value: RatesAt } | null = null;

  constructor(
    private readonly config: () => { tariff: TariffConfig; timeZone: string },
    /** Called with each day that closes (the local date changed). */
    private readonly onClose: (day: DayTotals) => void = () => {},
  ) {}

  /** Today's running totals (null before the first poll). */
  current(): DayTotals | null {
    return this.day;
  }

  lastSample(): PowerSample | null {
    return this.last;
  }

  /**
   * Closes the running day if instant `t` falls on a later local date; returns the local minute of
   * `t`. Days never go backwards: a late instant of an already closed day leaves the running day.
   */
  advanceTo(t: number): LocalMinute {
    const at = this.local(t, this.config().timeZone);
    if (this.day && at.date > this.day.date) {
      this.onClose(this.day);
      this.day = emptyDay(at.date);
    }
    this.day ??= emptyDay(at.date);
    return at;
  }

  /** Feeds one poll. Samples not newer than the last are ignored. */
  feed(s: PowerSample): void {
    const prev = this.last;
    if (prev && s.t <= prev.t) return;
    this.last = s;
    if (!prev || s.t - prev.t > MAX_GAP_MS) {
      this.advanceTo(s.t);
      return;
    }
    let a = prev.t;
    while (a < s.t) {
      const b = Math.min(s.t, (Math.floor(a / 60_000) + 1) * 60_000);
      this.integrate(prev, a, b);
      a = b;
    }
    this.advanceTo(s.t);
  }

  /** Adds the reading `p` held over `[a, b)` (both within one UTC minute) to its local day. */
  private integrate(p: PowerSample, a: number, b: number): void {
    const at = this.advanceTo(a);
    const day = this.day!;
    if (at.date !== day.date) return; // a late poll of a day already closed
    const { tariff } = this.config();
    const h = (b - a) / 3_600_000;
    const kwh = (w: number | null) => (w === null ? 0 : (w / 1000) * h);
    day.coveredMs += b - a;
    day.solarKwh += kwh(p.solar);
    day.homeKwh += kwh(p.home);
    if (p.battery !== null) {
      if (p.battery > 0) day.batteryChargeKwh += kwh(p.battery);
      else day.batteryDischargeKwh += kwh(-p.battery);
    }
    if (p.grid === null) return;
    if (this.rates?.at !== at || this.rates.tariff !== tariff) this.rates = { at, tariff, value: ratesAt(tariff, at) };
    const rates = this.rates.value;
    if (rates.zeroDraw) day.zeroDrawCoveredMs += b - a;
    if (p.grid > 0) {
      const imp = kwh(p.grid);
      day.importKwh += imp;
      day.importCost += imp * rates.importRate;
      if (rates.zeroDraw) day.zeroDrawImportKwh += imp;
    } else if (p.grid < 0) {
      let exp = kwh(-p.grid);
      day.exportKwh += exp;
      if (rates.superExport) {
        const share = Math.max(0, Math.min(exp, tariff.superExport.capKwh - day.superExportKwh));
        day.superExportKwh += share;
        day.superExportCredit += share * tariff.superExport.rate;
        exp -= share;
      }
      day.feedIn += exp * rates.feedInRate;
    }
  }
}

/** Rounds money and computed kWh once, at the edge (four decimals). */
export const round4 = (v: number): number => Math.round(v * 10_000) / 10_000;
