import { z } from 'zod';
import type { BlockOf } from '../feature.js';

/** A cheapest or dearest hour of the price forecast (the day ahead). */
const priceHourSchema = z.object({ startsAt: z.iso.datetime(), endsAt: z.iso.datetime(), averagePerKwh: z.number() });

/** The outlook's snapshot block (docs/savings.md). */
export const outlookBlock = {
  outlook: z
    .object({
      solar: z.object({
        /** `history`: factor fitted from `fitDays` past days; `rated`: 0.8 × rated kWp; `none`: no size known. */
        basis: z.enum(['history', 'rated', 'none']),
        kwhPerKwhM2: z.number().nullable(),
        fitDays: z.number().int(),
        ratedKwp: z.number().nullable(),
        forecastAt: z.iso.datetime().nullable(),
        error: z.string().nullable(),
        today: z.object({ date: z.string(), expectedKwh: z.number().nullable(), actualKwh: z.number().nullable() }),
        tomorrow: z.object({ date: z.string(), expectedKwh: z.number().nullable() }),
        yesterday: z.object({ date: z.string(), forecastKwh: z.number().nullable(), actualKwh: z.number().nullable() }),
      }),
      battery: z
        .object({
          soc: z.number(),
          reserveSoc: z.number(),
          capacityKwh: z.number(),
          solarBasis: z.enum(['forecast', 'none']),
          loadBasis: z.enum(['history', 'current']),
          fullAt: z.iso.datetime().nullable(),
          reserveAt: z.iso.datetime().nullable(),
          until: z.iso.datetime(),
          windows: z.array(
            z.object({
              name: z.string(),
              start: z.string(),
              end: z.string(),
              startsAt: z.iso.datetime(),
              endsAt: z.iso.datetime(),
              covers: z.boolean(),
              reserveAt: z.iso.datetime().nullable(),
              shortMinutes: z.number().int().nullable(),
              message: z.string(),
            }),
          ),
          /** Null when no peak window is left today. */
          coversPeak: z.boolean().nullable(),
        })
        .nullable(),
      /**
       * Additive (issue 43), with a live price source: the cheapest and dearest whole hour of the
       * next 24 h of forecast prices, and what the battery's expected evening use (16:00 to midnight,
       * from the outlook above) would cost bought from the grid at those prices.
       */
      prices: z
        .object({
          currency: z.string(),
          cheapest: priceHourSchema.nullable(),
          dearest: priceHourSchema.nullable(),
          evening: z.object({ fromAt: z.iso.datetime(), untilAt: z.iso.datetime(), batteryKwh: z.number(), worth: z.number() }).nullable(),
        })
        .optional(),
    })
    .meta({ description: "Additive (issue 26): solar forecast (expected today/tomorrow, yesterday's forecast against what came) and battery outlook over today's peak windows; see docs/savings.md." })
    .optional(),
};
export type OutlookSnapshot = NonNullable<BlockOf<typeof outlookBlock>['outlook']>;
