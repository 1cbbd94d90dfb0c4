import { localMinute } from '../tariff/local-time.js';

/** The price plan's step the plant was put in after a poll, as the savings count it. */
export interface StepInForce {
  /** A charge step of the plan (the plant charging from the grid). */
  charge: boolean;
  /** The dearest hours the battery was held for (the battery covers the house). */
  peak: boolean;
  /** The live import price in force then (per kWh); null without one. */
  importPerKwh: number | null;
}

/** What following the price did today (local day), rounded for the page. */
export interface ControlSavingsToday {
  date: string;
  /** Energy bought from the grid for the battery in the plan's charge steps (kWh). */
  chargedKwh: number;
  /** What it cost at the intervals' import prices (below zero: the household was paid). */
  chargedCost: number;
  /** chargedCost / chargedKwh (per kWh); null before any charge. */
  chargedPrice: number | null;
  /** Energy the battery gave the house in the dearest hours it was held for (kWh). */
  peakKwh: number;
  /** What importing it would have cost at those intervals' prices. */
  peakValue: number;
  /** peakValue / peakKwh (per kWh); null before the peak. */
  peakPrice: number | null;
  /** min(chargedKwh, peakKwh) × (peakPrice − chargedPrice); null until both happened. */
  saved: number | null;
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

/**
 * Today's savings of "Follow the price" (docs/battery-control.md, "What it saved"), from the polls
 * alone: the energy the battery took from the grid while the plan had it charging (each stretch
 * between two polls at the power the second one measured, at the import price of the interval the
 * stretch began in), against the energy it gave the house in the dearest hours the plan held it
 * for, valued at those hours' import prices. Saved = the smaller of the two energies × (the peak's
 * average price − the charge's average price). It does not guess what solar would have charged
 * without the plan. A gap longer than `maxGapMs` between polls is not counted.
 */
export class ControlSavings {
  private last: { at: number; step: StepInForce | null } | null = null;
  private day: { date: string; chargedKwh: number; chargedCost: number; peakKwh: number; peakValue: number } | null = null;

  constructor(
    private readonly timeZone: () => string,
    private readonly maxGapMs: () => number,
  ) {}

  /** A good poll at `at`: the stretch since the previous one is counted under the step then in force. */
  record(at: number, batteryW: number | null, gridW: number | null): void {
    const prev = this.last;
    this.last = { at, step: null };
    if (!prev || at <= prev.at || at - prev.at > this.maxGapMs()) return;
    const step = prev.step;
    if (!step || step.importPerKwh === null || batteryW === null) return;
    const hours = (at - prev.at) / 3_600_000;
    const d = this.dayOf(prev.at);
    if (step.charge && batteryW > 0 && gridW !== null && gridW > 0) {
      const kwh = (Math.min(batteryW, gridW) * hours) / 1000;
      d.chargedKwh += kwh;
      d.chargedCost += kwh * step.importPerKwh;
    } else if (step.peak && batteryW < 0) {
      const kwh = (-batteryW * hours) / 1000;
      d.peakKwh += kwh;
      d.peakValue += kwh * step.importPerKwh;
    }
  }

  /** The step the plant was put in at the poll at `at` (null: the plan is not acting). */
  setStep(at: number, step: StepInForce | null): void {
    if (this.last?.at === at) this.last.step = step;
  }

  today(now: number): ControlSavingsToday {
    const date = localMinute(now, this.timeZone()).date;
    const d = this.day?.date === date ? this.day : { date, chargedKwh: 0, chargedCost: 0, peakKwh: 0, peakValue: 0 };
    const chargedPrice = d.chargedKwh > 0 ? d.chargedCost / d.chargedKwh : null;
    const peakPrice = d.peakKwh > 0 ? d.peakValue / d.peakKwh : null;
    const saved = chargedPrice !== null && peakPrice !== null ? Math.min(d.chargedKwh, d.peakKwh) * (peakPrice - chargedPrice) : null;
    return {
      date,
      chargedKwh: round(d.chargedKwh, 3),
      chargedCost: round(d.chargedCost, 4),
      chargedPrice: chargedPrice === null ? null : round(chargedPrice, 4),
      peakKwh: round(d.peakKwh, 3),
      peakValue: round(d.peakValue, 4),
      peakPrice: peakPrice === null ? null : round(peakPrice, 4),
      saved: saved === null ? null : round(saved, 2),
    };
  }

  private dayOf(t: number) {
    const date = localMinute(t, this.timeZone()).date;
    if (this.day?.date !== date) this.day = { date, chargedKwh: 0, chargedCost: 0, peakKwh: 0, peakValue: 0 };
    return this.day;
  }
}
