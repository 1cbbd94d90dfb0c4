import { minuteOf, WEEKDAY_KEYS, type LocalMinute } from './local-time.js';

/** The tariff settings this module reads (a structural subset of `EnergySettings['tariff']`). */
export interface TariffConfig {
  importRate: number;
  feedInRate: number;
  dailySupplyCharge: number;
  windows: Array<{ name: string; start: string; end: string; days: readonly string[]; importRate: number; feedInRate: number | null }>;
  superExport: { enabled: boolean; rate: number; start: string; end: string; capKwh: number };
  zeroDraw: { enabled: boolean; credit: number; start: string; end: string; toleranceKwh: number };
}

/**
 * Whether a time-of-use window covers a local minute. `days` are the days a window STARTS on; a
 * window whose end is before its start wraps past midnight into the next day; an end equal to the
 * start covers the whole day.
 */
export function windowCovers(w: { start: string; end: string; days: readonly string[] }, at: LocalMinute): boolean {
  const s = minuteOf(w.start);
  const e = minuteOf(w.end);
  const today = w.days.includes(WEEKDAY_KEYS[at.weekday]!);
  if (s === e) return today;
  if (s < e) return today && at.minute >= s && at.minute < e;
  const yesterday = w.days.includes(WEEKDAY_KEYS[(at.weekday + 6) % 7]!);
  return (today && at.minute >= s) || (yesterday && at.minute < e);
}

/** A same-day window `[start, end)`; the super-export and zero-draw windows never wrap. */
export const dailyWindowCovers = (w: { start: string; end: string }, at: LocalMinute) => at.minute >= minuteOf(w.start) && at.minute < minuteOf(w.end);

export interface RatesAt {
  importRate: number;
  feedInRate: number;
  /** Index of the time-of-use window in force, or null for the fallback rates. */
  window: number | null;
  superExport: boolean;
  zeroDraw: boolean;
}

/** The rates in force at a local minute: the first matching window wins, else the fallback rates. */
export function ratesAt(t: TariffConfig, at: LocalMinute): RatesAt {
  const i = t.windows.findIndex((w) => windowCovers(w, at));
  const w = i >= 0 ? t.windows[i]! : null;
  return {
    importRate: w ? w.importRate : t.importRate,
    feedInRate: w?.feedInRate ?? t.feedInRate,
    window: i >= 0 ? i : null,
    superExport: t.superExport.enabled && dailyWindowCovers(t.superExport, at),
    zeroDraw: t.zeroDraw.enabled && dailyWindowCovers(t.zeroDraw, at),
  };
}

/** Whether any rate, window or credit is configured (the snapshot shows `tariff` only then). */
export function tariffConfigured(t: TariffConfig): boolean {
  return t.importRate > 0 || t.feedInRate > 0 || t.dailySupplyCharge > 0 || t.windows.length > 0 || t.superExport.enabled || t.zeroDraw.enabled;
}

/** Whether money is shown: a tariff is configured or a live price source gives prices. */
export const pricingOn = (t: TariffConfig, prices: unknown): boolean => prices != null || tariffConfigured(t);

/** Minutes of the week (0 = Monday 00:00) a window covers, wrapping from Sunday into Monday. */
function weekMinutes(w: { start: string; end: string; days: readonly string[] }): Set<number> {
  const out = new Set<number>();
  const s = minuteOf(w.start);
  const e = minuteOf(w.end);
  const len = s === e ? 1440 : (e - s + 1440) % 1440;
  for (const day of w.days) {
    const d = WEEKDAY_KEYS.indexOf(day as (typeof WEEKDAY_KEYS)[number]);
    if (d < 0) continue;
    for (let m = 0; m < len; m++) out.add((d * 1440 + s + m) % (7 * 1440));
  }
  return out;
}

/** The first pair of windows that share a minute on a shared day, as indexes, or null. */
export function findOverlap(windows: TariffConfig['windows']): [number, number] | null {
  const sets = windows.map(weekMinutes);
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      const [a, b] = sets[i]!.size < sets[j]!.size ? [sets[i]!, sets[j]!] : [sets[j]!, sets[i]!];
      for (const m of a) if (b.has(m)) return [i, j];
    }
  }
  return null;
}
