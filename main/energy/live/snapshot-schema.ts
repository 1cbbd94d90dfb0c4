import { z } from 'zod';

/**
 * The core of the curated snapshot (`GET /api/snapshot`, schema version 1, published in
 * docs/energy-api.md and docs/snapshot.schema.json): the gateway's own readings and the service's.
 * The features add their blocks (their modules' `snapshot` shapes); features.ts composes the whole.
 */

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

export const coreSnapshotShape = {
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
  devices: z.array(z.discriminatedUnion('type', [inverterDeviceSchema, smartLoadDeviceSchema])),
  history: z
    .object({
      count: z.number().int().min(0),
      firstT: z.number().int().nullable(),
      lastT: z.number().int().nullable(),
      links: z.object({ recent: z.string(), export: z.string() }),
    })
    .optional(),
};

export const coreSnapshotSchema = z.object(coreSnapshotShape);
export type CoreSnapshot = z.output<typeof coreSnapshotSchema>;
