import { dayCost, DayLedger, type DayTotals, type EnergyKwh, type PowerSample } from '../tariff/ledger.js';
import type { LocalMinute } from '../tariff/local-time.js';
import type { PriceBook } from '../prices/price-book.js';
import { pricingOn, type TariffConfig } from '../tariff/windows.js';

/**
 * One local day of the savings model: what was measured, what the household paid, and what it would
 * have paid in two counterfactuals computed from the same polls (see docs/savings.md):
 * - without the battery: each poll's battery flow goes to the grid instead (a charge had been
 *   exported, a discharge imported), priced at the rates in force at that minute;
 * - without solar or battery: the whole home load imported.
 * Money is "paid" = costs minus credits, the daily supply charge included; null without a tariff.
 */
export interface SavingsDay extends EnergyKwh {
  date: string;
  importKwhWithoutBattery: number;
  exportKwhWithoutBattery: number;
  paid: number | null;
  paidWithoutBattery: number | null;
  paidWithoutSolar: number | null;
  currency: string | null;
  coveredMs: number;
}

export interface SavingsConfig {
  tariff: TariffConfig;
  timeZone: string;
  currency: string;
  /** The live prices when a price source is set: each stretch is priced at its interval, in all three ledgers. */
  prices?: PriceBook | null;
}

/** The poll as it would have been without the battery: its flow goes through the grid instead. */
export const withoutBattery = (s: PowerSample): PowerSample => ({ t: s.t, solar: s.solar, home: s.home, grid: s.grid === null ? null : s.grid - (s.battery ?? 0), battery: 0 });

/** The poll as it would have been without solar or battery: the home load all imported. */
export const withoutSolar = (s: PowerSample): PowerSample => ({ t: s.t, solar: 0, home: s.home, grid: s.home, battery: 0 });

const paidOf = (t: TariffConfig, day: DayTotals, now: LocalMinute | null) => -dayCost(t, day, now).net;

/** Combines the three ledgers' totals of one day into a savings day (unrounded). */
export function savingsDayOf(cfg: SavingsConfig, actual: DayTotals, noBattery: DayTotals, noSolar: DayTotals, now: LocalMinute | null): SavingsDay {
  const priced = pricingOn(cfg.tariff, cfg.prices);
  return {
    date: actual.date,
    solarKwh: actual.solarKwh,
    homeKwh: actual.homeKwh,
    importKwh: actual.importKwh,
    exportKwh: actual.exportKwh,
    batteryChargeKwh: actual.batteryChargeKwh,
    batteryDischargeKwh: actual.batteryDischargeKwh,
    importKwhWithoutBattery: noBattery.importKwh,
    exportKwhWithoutBattery: noBattery.exportKwh,
    paid: priced ? paidOf(cfg.tariff, actual, now) : null,
    paidWithoutBattery: priced ? paidOf(cfg.tariff, noBattery, now) : null,
    paidWithoutSolar: priced ? paidOf(cfg.tariff, noSolar, now) : null,
    currency: priced ? cfg.currency : null,
    coveredMs: actual.coveredMs,
  };
}

type Which = 'actual' | 'noBattery' | 'noSolar';

/**
 * Three day ledgers fed the same polls (actual, without battery, without solar or battery), so that
 * the counterfactuals are priced by exactly the same rules as the real bill: the time-of-use window
 * of each minute, super export, zero draw, the supply charge, local days in the configured zone.
 */
export class SavingsLedger {
  private readonly ledgers: Record<Which, DayLedger>;
  private readonly closing = new Map<string, Partial<Record<Which, DayTotals>>>();

  constructor(
    private readonly config: () => SavingsConfig,
    private readonly onClose: (day: SavingsDay) => void = () => {},
  ) {
    const closer = (which: Which) => (day: DayTotals) => this.closed(which, day);
    this.ledgers = { actual: new DayLedger(config, closer('actual')), noBattery: new DayLedger(config, closer('noBattery')), noSolar: new DayLedger(config, closer('noSolar')) };
  }

  private closed(which: Which, day: DayTotals): void {
    const got = { ...this.closing.get(day.date), [which]: day };
    if (got.actual && got.noBattery && got.noSolar) {
      this.closing.delete(day.date);
      this.onClose(savingsDayOf(this.config(), got.actual, got.noBattery, got.noSolar, null));
    } else this.closing.set(day.date, got);
  }

  feed(s: PowerSample): void {
    this.ledgers.actual.feed(s);
    this.ledgers.noBattery.feed(withoutBattery(s));
    this.ledgers.noSolar.feed(withoutSolar(s));
  }

  /** Today so far as seen at instant `now` (closing the day first if `now` is on a later date); null before the first poll. */
  current(now: number): SavingsDay | null {
    const at = this.ledgers.actual.advanceTo(now);
    this.ledgers.noBattery.advanceTo(now);
    this.ledgers.noSolar.advanceTo(now);
    const a = this.ledgers.actual.current();
    const b = this.ledgers.noBattery.current();
    const s = this.ledgers.noSolar.current();
    if (!a || !b || !s || this.ledgers.actual.lastSample() === null) return null;
    return savingsDayOf(this.config(), a, b, s, at);
  }
}
