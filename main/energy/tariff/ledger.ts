import type { LiveState } from '../live-state.js';
import type { PriceBook, PriceInterval } from '../prices/price-book.js';
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
  /**
   * Grid energy (import plus export, kWh) priced at the tariff's fixed rates while a live price
   * source was set, because no interval price covered it (an outage with nothing cached).
   */
  fallbackKwh: number;
}

/** What the ledger reads on every stretch it integrates. `prices`: the live book, when a price source is set. */
export interface LedgerConfig {
  tariff: TariffConfig;
  timeZone: string;
  prices?: PriceBook | null;
}

/** One priced interval of a day as the bill lists it (unrounded); money in the currency's main unit. */
export interface IntervalCost {
  start: number;
  end: number;
  importPerKwh: number;
  /** The feed-in price used (the interval's, or the tariff's where the source publishes none). */
  feedInPerKwh: number;
  importKwh: number;
  exportKwh: number;
  importCost: number;
  /** Feed-in earned at `feedInPerKwh` (export counted as super export is not in it). */
  feedIn: number;
  spike: boolean;
}

/** The rates in force at an instant: the live interval covering it when there is one, else the tariff's. */
export interface PricedRates extends RatesAt {
  interval: PriceInterval | null;
}

/** An interval's prices in place of the fixed import and feed-in rates (the tariff's feed-in where the source has none). */
const withInterval = (fixed: RatesAt, iv: PriceInterval | null): RatesAt => (iv ? { ...fixed, importRate: iv.importPerKwh, feedInRate: iv.feedInPerKwh ?? fixed.feedInRate } : fixed);

/** The rates at instant `t` (local minute `at`): the live interval covering it, when there is one, else the tariff's. */
export function pricesAt(tariff: TariffConfig, at: LocalMinute, t: number, book: PriceBook | null | undefined): PricedRates {
  const interval = book?.at(t) ?? null;
  return { ...withInterval(ratesAt(tariff, at), interval), interval };
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
  fallbackKwh: 0,
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
 * time-of-use windows (HH:MM) are exact, DST included, and at the edges of live price intervals so
 * that each stretch is priced at the interval it fell in. Gaps over 15 minutes are skipped.
 */
export class DayLedger {
  private day: DayTotals | null = null;
  private last: PowerSample | null = null;
  /** Today's priced intervals by start (only with a live price source). */
  private byInterval = new Map<number, IntervalCost>();
  private readonly local = createLocalMinuteCache();
  /** Rates of the last local minute seen, for the same tariff object (polls mostly share a minute). */
  private rates: { at: LocalMinute; tariff: TariffConfig; value: RatesAt } | null = null;

  constructor(
    private readonly config: () => LedgerConfig,
    /** Called with each day that closes (the local date changed). */
    private readonly onClose: (day: DayTotals) => void = () => {},
  ) {}

  /** Today's running totals (null before the first poll). */
  current(): DayTotals | null {
    return this.day;
  }

  /** Today's priced intervals in time order (empty without a live price source). */
  intervals(): IntervalCost[] {
    return [...this.byInterval.values()].sort((a, b) => a.start - b.start);
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
      this.byInterval = new Map();
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
    const book = this.config().prices ?? null;
    let a = prev.t;
    while (a < s.t) {
      let b = Math.min(s.t, (Math.floor(a / 60_000) + 1) * 60_000);
      const iv = book?.at(a) ?? null;
      // A stretch is priced whole at one interval: cut it where the interval ends, or where the next one begins.
      if (iv) b = Math.min(b, iv.end);
      else if (book) b = Math.min(b, book.between(a, b)[0]?.start ?? b);
      this.integrate(prev, a, b, book, iv);
      a = b;
    }
    this.advanceTo(s.t);
  }

  /** Adds the reading `p` held over `[a, b)` (within one UTC minute and one price interval) to its local day. */
  private integrate(p: PowerSample, a: number, b: number, book: PriceBook | null, iv: PriceInterval | null): void {
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
    const fixed = this.rates.value;
    const rates = withInterval(fixed, iv);
    const line = iv ? this.line(iv, rates.feedInRate) : null;
    if (rates.zeroDraw) day.zeroDrawCoveredMs += b - a;
    if (p.grid > 0) {
      const imp = kwh(p.grid);
      day.importKwh += imp;
      day.importCost += imp * rates.importRate;
      if (rates.zeroDraw) day.zeroDrawImportKwh += imp;
      if (line) {
        line.importKwh += imp;
        line.importCost += imp * rates.importRate;
      } else if (book) day.fallbackKwh += imp;
    } else if (p.grid < 0) {
      let exp = kwh(-p.grid);
      day.exportKwh += exp;
      if (line) line.exportKwh += exp;
      else if (book) day.fallbackKwh += exp;
      if (rates.superExport) {
        const share = Math.max(0, Math.min(exp, tariff.superExport.capKwh - day.superExportKwh));
        day.superExportKwh += share;
        day.superExportCredit += share * tariff.superExport.rate;
        exp -= share;
      }
      day.feedIn += exp * rates.feedInRate;
      if (line) line.feedIn += exp * rates.feedInRate;
    }
  }

  /** Today's line for interval `iv` (created on its first stretch). */
  private line(iv: PriceInterval, feedInPerKwh: number): IntervalCost {
    let l = this.byInterval.get(iv.start);
    if (!l) {
      l = { start: iv.start, end: iv.end, importPerKwh: iv.importPerKwh, feedInPerKwh, importKwh: 0, exportKwh: 0, importCost: 0, feedIn: 0, spike: iv.spike };
      this.byInterval.set(iv.start, l);
    }
    return l;
  }
}

/** Rounds money and computed kWh once, at the edge (four decimals). */
export const round4 = (v: number): number => Math.round(v * 10_000) / 10_000;
