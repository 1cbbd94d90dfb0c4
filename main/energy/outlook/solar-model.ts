import type { IrradianceHour } from '../feature.js';
import { localMinute } from '../tariff/local-time.js';

/**
 * Solar forecast model (docs/savings.md): the plant's production for a day is its forecast
 * irradiance (kWh/m², the sum of Open-Meteo's hourly `shortwave_radiation`) times a plant factor in
 * kWh per kWh/m², learned from its own history.
 */

/** Default performance ratio: a plant of P kWp makes about 0.8 × P kWh per kWh/m² of sunlight. */
export const PERFORMANCE_RATIO = 0.8;
/** The fit uses up to this many of the latest days that have both a forecast and a full day of production. */
export const FIT_DAYS = 14;
/** Fewer fitted days than this and the rated-size default is used. */
export const MIN_FIT_DAYS = 3;
/** Days darker than this (kWh/m²) are left out of the fit (a snowed-over panel would skew it). */
export const MIN_FIT_IRRADIANCE = 0.5;

export interface PlantFit {
  /** kWh produced per kWh/m² of forecast irradiance; null when neither history nor a rated size is known. */
  kwhPerKwhM2: number | null;
  /** `history`: fitted from `days` past days; `rated`: the default from the rated size; `none`. */
  basis: 'history' | 'rated' | 'none';
  days: number;
}

/** Irradiance per local date (kWh/m²): each hour counts on the local date of its middle. */
export function irradianceByDate(hours: readonly IrradianceHour[], timeZone: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const h of hours) {
    const date = localMinute(h.t - 1_800_000, timeZone).date;
    out.set(date, (out.get(date) ?? 0) + h.wm2 / 1000);
  }
  return out;
}

/**
 * The plant factor: Σ production ÷ Σ irradiance over the latest `FIT_DAYS` usable days (a ratio of
 * sums, so bright days weigh more than dull ones); with fewer than `MIN_FIT_DAYS`, rated kWp × 0.8.
 */
export function fitPlant(days: ReadonlyArray<{ date: string; kwhM2: number; solarKwh: number }>, ratedKwp: number | null): PlantFit {
  const usable = days
    .filter((d) => d.kwhM2 >= MIN_FIT_IRRADIANCE && d.solarKwh > 0)
    .sort((a, b) => (a.date < b.date ? 1 : -1))
    .slice(0, FIT_DAYS);
  if (usable.length >= MIN_FIT_DAYS) {
    const solar = usable.reduce((a, d) => a + d.solarKwh, 0);
    const irr = usable.reduce((a, d) => a + d.kwhM2, 0);
    return { kwhPerKwhM2: solar / irr, basis: 'history', days: usable.length };
  }
  if (ratedKwp !== null && ratedKwp > 0) return { kwhPerKwhM2: ratedKwp * PERFORMANCE_RATIO, basis: 'rated', days: usable.length };
  return { kwhPerKwhM2: null, basis: 'none', days: usable.length };
}

/** Expected solar power (kW) at instant `t`: the hour's irradiance (kW/m²) times the plant factor. */
export function solarPowerAt(hours: readonly IrradianceHour[], factor: number): (t: number) => number {
  const byHourEnd = new Map(hours.map((h) => [h.t, h.wm2]));
  return (t) => {
    const end = Math.ceil((t + 1) / 3_600_000) * 3_600_000;
    return ((byHourEnd.get(end) ?? 0) / 1000) * factor;
  };
}
