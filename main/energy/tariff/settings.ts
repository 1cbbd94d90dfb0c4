import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../features/section.js';
import { findOverlap } from './windows.js';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM (24-hour)');
const money = (max: number) => z.number().min(0).max(max);
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const weekdays = z
  .array(z.enum(WEEKDAYS))
  .min(1)
  .max(7)
  .default(() => [...WEEKDAYS]);

export const tariffWindow = z
  .object({
    name: z.string().trim().min(1).max(40).default('Window').meta(live),
    start: hhmm.default('00:00').meta({ ...live, description: 'Start (inclusive), local time.' }),
    end: hhmm.default('00:00').meta({ ...live, description: 'End (exclusive), local time; an end at or before the start wraps past midnight.' }),
    days: weekdays.meta(live),
    importRate: money(100).default(0).meta({ ...live, description: 'Price per kWh imported inside the window.' }),
    feedInRate: money(100).nullable().default(null).meta({ ...live, description: 'Credit per kWh exported inside the window; blank uses the fallback feed-in rate.' }),
  })
  .strict();

export const tariffSettings = z
  .object({
    importRate: money(100).default(0).meta({ ...live, description: 'Fallback price per kWh imported outside every window.' }),
    feedInRate: money(100).default(0).meta({ ...live, description: 'Fallback credit per kWh exported.' }),
    dailySupplyCharge: money(1000).default(0).meta({ ...live, description: 'Fixed charge per local day.' }),
    windows: z.array(tariffWindow).max(24).default([]).meta({ ...live, description: 'Time-of-use windows; the first match wins.' }),
    superExport: z
      .object({
        enabled: z.boolean().default(false).meta(live),
        rate: money(100).default(0).meta({ ...live, description: 'Credit per kWh exported inside the window.' }),
        start: hhmm.default('18:00').meta(live),
        end: hhmm.default('20:00').meta(live),
        capKwh: z.number().min(0).max(1000).default(10).meta({ ...live, description: 'kWh per day that earn the super-export rate.' }),
      })
      .strict()
      .default(() => ({ enabled: false, rate: 0, start: '18:00', end: '20:00', capKwh: 10 }))
      .meta(live),
    zeroDraw: z
      .object({
        enabled: z.boolean().default(false).meta(live),
        credit: money(1000).default(0).meta({ ...live, description: 'Credit per day when import stays at about zero inside the window.' }),
        start: hhmm.default('16:00').meta(live),
        end: hhmm.default('21:00').meta(live),
        toleranceKwh: z.number().min(0).max(10).default(0.05).meta({ ...live, description: 'Import inside the window that still counts as zero.' }),
      })
      .strict()
      .default(() => ({ enabled: false, credit: 0, start: '16:00', end: '21:00', toleranceKwh: 0.05 }))
      .meta(live),
  })
  .strict()
  .superRefine((t, ctx) => {
    // Windows may not overlap on a shared day; the credit windows run within one day (end after start).
    const overlap = findOverlap(t.windows);
    if (overlap) ctx.addIssue({ code: 'custom', path: ['windows', overlap[1], 'start'], message: `overlaps window ${overlap[0] + 1} ("${t.windows[overlap[0]]!.name}") on a shared day` });
    for (const key of ['superExport', 'zeroDraw'] as const) {
      if (t[key].end <= t[key].start) ctx.addIssue({ code: 'custom', path: [key, 'end'], message: 'must be after the start (this window runs within one day)' });
    }
  });

export const tariffSection = settingsSection({ key: 'tariff', schema: withDefaults(tariffSettings) });
