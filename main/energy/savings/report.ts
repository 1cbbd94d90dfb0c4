import { round4, type EnergyKwh } from '../tariff/ledger.js';
import type { SavingsDay } from './ledger.js';

export type SavingsPeriodKind = 'day' | 'month' | 'year';

/** A day as the report reads it: `complete` is false for today and for days the polls did not fully cover. */
export interface SavingsInput extends SavingsDay {
  complete: boolean;
}

/** One bar of the report (a day, a month `YYYY-MM` or a year `YYYY`), rounded at the edge. */
export interface SavingsPeriod extends EnergyKwh {
  period: string;
  days: number;
  /** Days the polls covered fully (a month with gaps says so here). */
  completeDays: number;
  /** Days with a tariff (money is summed over these). */
  pricedDays: number;
  importKwhWithoutBattery: number;
  exportKwhWithoutBattery: number;
  /** Without solar or battery the whole home load is imported. */
  importKwhWithoutSolar: number;
  /** Costs minus credits (supply charge included); null when no day of the period was priced or currencies differ. */
  paid: number | null;
  paidWithoutBattery: number | null;
  paidWithoutSolar: number | null;
  /** paidWithoutBattery − paid. */
  savedByBattery: number | null;
  /** paidWithoutSolar − paid. */
  savedBySolarAndBattery: number | null;
  currency: string | null;
  /** Share of the home load not imported, % (null without home load). */
  selfSufficiencyPct: number | null;
  /** Share of the solar production used on site (home or battery), % (null without production). */
  selfConsumptionPct: number | null;
}

export const periodOf = (date: string, by: SavingsPeriodKind): string => (by === 'day' ? date : by === 'month' ? date.slice(0, 7) : date.slice(0, 4));

interface Acc {
  period: string;
  days: number;
  completeDays: number;
  pricedDays: number;
  solar: number;
  home: number;
  imp: number;
  exp: number;
  charge: number;
  discharge: number;
  impNb: number;
  expNb: number;
  paid: number;
  paidNb: number;
  paidNs: number;
  currencies: Set<string>;
}

const acc = (period: string): Acc => ({ period, days: 0, completeDays: 0, pricedDays: 0, solar: 0, home: 0, imp: 0, exp: 0, charge: 0, discharge: 0, impNb: 0, expNb: 0, paid: 0, paidNb: 0, paidNs: 0, currencies: new Set() });

function add(a: Acc, d: SavingsInput): void {
  a.days++;
  if (d.complete) a.completeDays++;
  a.solar += d.solarKwh;
  a.home += d.homeKwh;
  a.imp += d.importKwh;
  a.exp += d.exportKwh;
  a.charge += d.batteryChargeKwh;
  a.discharge += d.batteryDischargeKwh;
  a.impNb += d.importKwhWithoutBattery;
  a.expNb += d.exportKwhWithoutBattery;
  if (d.paid !== null && d.paidWithoutBattery !== null && d.paidWithoutSolar !== null && d.currency !== null) {
    a.pricedDays++;
    a.paid += d.paid;
    a.paidNb += d.paidWithoutBattery;
    a.paidNs += d.paidWithoutSolar;
    a.currencies.add(d.currency);
  }
}

const pct = (part: number, whole: number): number | null => (whole > 1e-9 ? round4(Math.min(100, Math.max(0, (part / whole) * 100))) : null);

function view(a: Acc): SavingsPeriod {
  const money = a.pricedDays > 0 && a.currencies.size === 1;
  const m = (v: number) => (money ? round4(v) : null);
  return {
    period: a.period,
    days: a.days,
    completeDays: a.completeDays,
    pricedDays: a.pricedDays,
    solarKwh: round4(a.solar),
    homeKwh: round4(a.home),
    importKwh: round4(a.imp),
    exportKwh: round4(a.exp),
    batteryChargeKwh: round4(a.charge),
    batteryDischargeKwh: round4(a.discharge),
    importKwhWithoutBattery: round4(a.impNb),
    exportKwhWithoutBattery: round4(a.expNb),
    importKwhWithoutSolar: round4(a.home),
    paid: m(a.paid),
    paidWithoutBattery: m(a.paidNb),
    paidWithoutSolar: m(a.paidNs),
    savedByBattery: m(a.paidNb - a.paid),
    savedBySolarAndBattery: m(a.paidNs - a.paid),
    currency: money ? [...a.currencies][0]! : null,
    selfSufficiencyPct: pct(a.home - a.imp, a.home),
    selfConsumptionPct: pct(a.solar - a.exp, a.solar),
  };
}

/**
 * The savings report: days (sorted by date) summed into periods, and a total. Sums are of the
 * unrounded day figures; each figure is rounded once, here.
 */
export function savingsReport(days: readonly SavingsInput[], by: SavingsPeriodKind): { periods: SavingsPeriod[]; total: SavingsPeriod } {
  const periods: Acc[] = [];
  const total = acc('total');
  let cur: Acc | null = null;
  for (const d of days) {
    const p = periodOf(d.date, by);
    if (!cur || cur.period !== p) periods.push((cur = acc(p)));
    add(cur, d);
    add(total, d);
  }
  return { periods: periods.map(view), total: view(total) };
}

export const CSV_COLUMNS = [
  'period',
  'days',
  'completeDays',
  'pricedDays',
  'solarKwh',
  'homeKwh',
  'importKwh',
  'exportKwh',
  'batteryChargeKwh',
  'batteryDischargeKwh',
  'importKwhWithoutBattery',
  'exportKwhWithoutBattery',
  'importKwhWithoutSolar',
  'paid',
  'paidWithoutBattery',
  'paidWithoutSolar',
  'savedByBattery',
  'savedBySolarAndBattery',
  'currency',
  'selfSufficiencyPct',
  'selfConsumptionPct',
] as const satisfies ReadonlyArray<keyof SavingsPeriod>;

export function savingsCsv(periods: readonly SavingsPeriod[]): string {
  const esc = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return [CSV_COLUMNS.join(','), ...periods.map((p) => CSV_COLUMNS.map((c) => esc(p[c])).join(','))].join('\n') + '\n';
}
