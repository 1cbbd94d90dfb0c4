import { z } from 'zod';

/** The curated snapshot (`GET /api/snapshot`), schema version 1. Published in docs/energy-api.md. */
const W = z.number().nullable();
const kWh = z.number().nullable();
const pct = z.number().nullable();

export const estimateSchema = z.object({
  status: z.enum(['idle', 'warming', 'ready']),
  direction: z.enum(['charge', 'discharge']).optional(),
  target: z.enum(['full', 'reserve', 'empty']).optional(),
  minutesRemaining: z.number().int().nullable().optional(),
  etaIso: z.iso.datetime().nullable().optional(),
  energyToGoKwh: z.number().optional(),
});

export const stringSchema = z.object({ index: z.number().int().min(1).max(16), name: z.string(), voltage: z.number().nullable(), current: z.number().nullable(), power: W });

export const inverterDeviceSchema = z.object({
  type: z.literal('inverter'),
  unitId: z.number().int().min(1).max(246),
  model: z.string(),
  serial: z.string(),
  status: z.enum(['standby', 'running', 'fault', 'shutdown']).nullable(),
  activePower: W,
  solarPower: W,
  temperature: z.number().nullable(),
  soc: pct,
  soh: pct,
  strings: z.array(stringSchema),
});

export const smartLoadDeviceSchema = z.object({
  type: z.literal('smartLoad'),
  index: z.number().int().min(1).max(24),
  name: z.string(),
  power: W,
  lifetimeEnergy: kWh,
});

export const alertEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  trigger: z.string(),
  message: z.string(),
  /** `value` names the watched value (the trigger); `reading` is its latest reading in `unit`. */
  condition: z.object({ value: z.string(), comparison: z.enum(['atOrAbove', 'atOrBelow']), threshold: z.number(), unit: z.string(), reading: z.number().nullable() }),
  since: z.iso.datetime(),
});

/** One live price interval as the snapshot carries it (issue 43): household signs, currency main unit per kWh. */
export const priceIntervalSchema = z.object({
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  importPerKwh: z.number(),
  feedInPerKwh: z.number().nullable(),
  descriptor: z.enum(['negative', 'extremelyLow', 'veryLow', 'low', 'neutral', 'high', 'spike']).nullable(),
  spike: z.boolean(),
  estimate: z.boolean(),
});

/** A cheapest or dearest hour of the price forecast (the day ahead). */
const priceHourSchema = z.object({ startsAt: z.iso.datetime(), endsAt: z.iso.datetime(), averagePerKwh: z.number() });

export const snapshotSchema = z.object({
  schema: z.literal(1),
  generatedAt: z.iso.datetime(),
  lastUpdated: z.iso.datetime().nullable(),
  connected: z.boolean(),
  pollIntervalMs: z.number().int().positive(),
  units: z.object({ power: z.literal('W'), energy: z.literal('kWh'), temperature: z.enum(['celsius', 'fahrenheit']), currency: z.string() }),
  power: z.object({
    solar: W,
    solarNative: W,
    solarThirdParty: W,
    home: W,
    homeGeneral: W,
    smartPort: W,
    grid: W,
    battery: W,
    gridDirection: z.enum(['import', 'export', 'idle']).nullable(),
    batteryDirection: z.enum(['charge', 'discharge', 'idle']).nullable(),
  }),
  battery: z.object({
    soc: pct,
    soh: pct,
    capacityKwh: kWh,
    reserveSoc: pct,
    energyRemainingKwh: kWh,
    direction: z.enum(['charge', 'discharge', 'idle']).nullable(),
    estimate: estimateSchema,
  }),
  energy: z.object({
    consumedToday: kWh,
    lifetime: z.object({ pv: kWh, consumed: kWh, gridImport: kWh, gridExport: kWh, batteryCharge: kWh, batteryDischarge: kWh }),
  }),
  weather: z
    .object({ outdoorTemp: z.number().nullable(), weatherCode: z.number().int().nullable(), location: z.string(), latitude: z.number(), longitude: z.number() })
    .optional(),
  tariff: z
    .object({
      currency: z.string(),
      netPerHour: z.number().nullable(),
      /** Additive (issue 43): what priced the day, the tariff's fixed rates or a live source's intervals. */
      pricedBy: z.enum(['fixed', 'amber', 'octopus']).optional(),
      today: z.object({
        /** Local date (YYYY-MM-DD, configured zone) the figures cover. */
        date: z.string(),
        importCost: z.number(),
        feedIn: z.number(),
        superExportCredit: z.number(),
        zeroDrawCredit: z.number(),
        /** True only once the zero-draw window has ended within the tolerance. */
        zeroDrawMet: z.boolean(),
        /** `soFar` = inside the window and still within the tolerance (credit not yet counted). */
        zeroDrawStatus: z.enum(['off', 'notStarted', 'soFar', 'met', 'missed', 'noData']),
        supply: z.number(),
        /** Credits minus costs; positive means the day earned money. */
        net: z.number(),
        importKwh: z.number(),
        exportKwh: z.number(),
        superExportKwh: z.number(),
        zeroDrawImportKwh: z.number(),
        /** Additive (issue 43): grid kWh priced at the fixed rates because no live interval price covered it. */
        fallbackKwh: z.number().optional(),
      }),
    })
    .optional(),
  /** Today's savings (docs/savings.md): what was paid against the two counterfactuals. Present after the first poll. */
  savings: z
    .object({
      today: z.object({
        date: z.string(),
        currency: z.string().nullable(),
        paid: z.number().nullable(),
        paidWithoutBattery: z.number().nullable(),
        paidWithoutSolar: z.number().nullable(),
        savedByBattery: z.number().nullable(),
        savedBySolarAndBattery: z.number().nullable(),
        selfSufficiencyPct: z.number().nullable(),
        selfConsumptionPct: z.number().nullable(),
        /** Today's grid import so far, kWh: what the page names beside the self-sufficiency. */
        importKwh: z.number().optional(),
        /** The daily supply charge inside `paid` (paid even with no grid import); null without a tariff. */
        supplyCharge: z.number().nullable().optional(),
      }),
    })
    .meta({ description: 'Additive (issue 26): today so far in the savings model of docs/savings.md; paid = costs minus credits, money null without a tariff.' })
    .optional(),
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
  prices: z
    .object({
      source: z.enum(['amber', 'octopus']),
      currency: z.string(),
      /** True when no interval covers now or the source has not answered for too long. */
      stale: z.boolean(),
      fetchedAt: z.iso.datetime().nullable(),
      current: priceIntervalSchema.nullable(),
      /** The next 24 hours of known intervals after the current one, in time order. */
      forecast: z.array(priceIntervalSchema),
    })
    .meta({ description: "Additive (issue 43): live prices from Amber or Octopus, per kWh in the currency's main unit with the household's signs (feed-in below zero: exporting costs money); present only when a live source is set. See docs/prices.md." })
    .optional(),
  alerts: z.array(alertEntrySchema),
  devices: z.array(z.discriminatedUnion('type', [inverterDeviceSchema, smartLoadDeviceSchema])),
  history: z
    .object({
      count: z.number().int().min(0),
      firstT: z.number().int().nullable(),
      lastT: z.number().int().nullable(),
      links: z.object({ recent: z.string(), export: z.string() }),
    })
    .optional(),
});

export type Snapshot = z.output<typeof snapshotSchema>;
