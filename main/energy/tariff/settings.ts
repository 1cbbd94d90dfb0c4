import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../settings-section.js';
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
    name: z.string().trim().min(1).max(40).default('Window').meta({ ...live, label: 'Name' }),
    start: hhmm.default('00:00').meta({ ...live, label: 'Start', description: 'When the period starts, in local time.' }),
    end: hhmm.default('00:00').meta({ ...live, label: 'End', description: 'When it ends, in local time. An end at or before the start runs past midnight into the next day.' }),
    days: weekdays.meta({ ...live, label: 'Days' }),
    importRate: money(100).default(0).meta({ ...live, label: 'Import rate', description: 'What you pay per kWh bought from the grid in this period.' }),
    feedInRate: money(100).nullable().default(null).meta({ ...live, label: 'Feed-in rate', description: 'What you are paid per kWh sent to the grid in this period. Leave it blank for your usual feed-in rate.' }),
  })
  .strict();

export const tariffSettings = z
  .object({
    importRate: money(100).default(0).meta({ ...live, label: 'Import rate', description: 'What you pay per kWh bought from the grid at times no time-of-use period covers.' }),
    feedInRate: money(100).default(0).meta({ ...live, label: 'Feed-in rate', description: 'What you are paid per kWh sent to the grid, unless a period sets its own rate.' }),
    dailySupplyCharge: money(1000).default(0).meta({ ...live, label: 'Daily supply charge', description: 'The fixed charge per day, however much you use.' }),
    windows: z.array(tariffWindow).max(24).default([]).meta({ ...live, label: 'Time-of-use periods', description: 'Times of day with their own prices, such as peak and off-peak. Periods on the same day may not overlap.' }),
    superExport: z
      .object({
        enabled: z.boolean().default(false).meta({ ...live, label: 'Super export' }),
        rate: money(100).default(0).meta({ ...live, label: 'Super export rate', description: 'What you are paid per kWh sent to the grid in this period.' }),
        start: hhmm.default('18:00').meta({ ...live, label: 'Start' }),
        end: hhmm.default('20:00').meta({ ...live, label: 'End' }),
        capKwh: z.number().min(0).max(1000).default(10).meta({ ...live, label: 'Daily limit', description: 'How many kWh a day earn the super export rate; the rest earn your usual feed-in rate.' }),
      })
      .strict()
      .default(() => ({ enabled: false, rate: 0, start: '18:00', end: '20:00', capKwh: 10 }))
      .meta({ ...live, label: 'Super export', description: 'A higher rate for power sent to the grid at one time of day, up to a daily limit.' }),
    zeroDraw: z
      .object({
        enabled: z.boolean().default(false).meta({ ...live, label: 'Zero-import credit' }),
        credit: money(1000).default(0).meta({ ...live, label: 'Credit', description: 'What you are credited on a day you buy next to nothing from the grid in this period.' }),
        start: hhmm.default('16:00').meta({ ...live, label: 'Start' }),
        end: hhmm.default('21:00').meta({ ...live, label: 'End' }),
        toleranceKwh: z.number().min(0).max(10).default(0.05).meta({ ...live, label: 'Allowance', description: 'How much you may still buy in the period and have it count as nothing.' }),
      })
      .strict()
      .default(() => ({ enabled: false, credit: 0, start: '16:00', end: '21:00', toleranceKwh: 0.05 }))
      .meta({ ...live, label: 'Zero-import credit', description: 'A daily credit for buying next to nothing from the grid at one time of day.' }),
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
