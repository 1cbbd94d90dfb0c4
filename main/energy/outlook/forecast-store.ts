import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Days of forecast irradiance kept (the fit reads at most the latest 14). */
export const KEEP_DAYS = 60;

const fileSchema = z.object({
  days: z.record(
    z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    z.object({ kwhM2: z.number().min(0).max(50), dayAheadKwhM2: z.number().min(0).max(50).nullable() }),
  ),
});

export type ForecastDays = z.output<typeof fileSchema>['days'];

/**
 * Forecast irradiance per local date in `<dataDir>/energy/solar-forecast.json`: the latest forecast
 * for the date (`kwhM2`, what the fit learns from) and the last one made before the day began
 * (`dayAheadKwhM2`, what "yesterday's forecast" compares). Small; written whole.
 */
export class ForecastStore {
  private days: ForecastDays = {};

  constructor(private readonly file: string) {}

  load(): void {
    try {
      const parsed = fileSchema.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      this.days = parsed.success ? parsed.data.days : {};
    } catch {
      this.days = {};
    }
  }

  get(date: string) {
    return this.days[date] ?? null;
  }

  all(): ForecastDays {
    return this.days;
  }

  /** Records a forecast made at `madeOnDate` (local date) for each date. */
  record(byDate: Map<string, number>, madeOnDate: string): void {
    for (const [date, kwhM2] of byDate) {
      const prev = this.days[date];
      this.days[date] = { kwhM2, dayAheadKwhM2: date > madeOnDate ? kwhM2 : (prev?.dayAheadKwhM2 ?? null) };
    }
    const dates = Object.keys(this.days).sort();
    for (const d of dates.slice(0, Math.max(0, dates.length - KEEP_DAYS))) delete this.days[d];
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ days: this.days }));
    fs.renameSync(tmp, this.file);
  }
}
