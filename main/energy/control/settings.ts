import { z } from 'zod';
import { live, settingsSection, withDefaults } from '../settings-section.js';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day, HH:MM');

/**
 * Battery control (docs/battery-control.md): off by default; every field is the owner's
 * (owner-settings.ts). The bounds are the user's own limits on what the controller may write, on
 * top of the plant's rated ones it reads from the gateway.
 */
export const controlSettings = z
  .object({
    enabled: z.boolean().default(false).meta({ ...live, label: 'Battery control', description: 'Let this app change how your battery charges and discharges, through the gateway. Off: the plant runs on its own.' }),
    mqttControl: z.boolean().default(false).meta({ ...live, label: 'Allow control from Home Assistant', description: 'Let Home Assistant (through your MQTT broker) change the battery’s mode, the charge target and the export limit, within the limits set here. Off: it can only show them, and press Stop, which hands the plant back to its own mode.' }),
    dryRun: z.boolean().default(true).meta({ ...live, label: 'Try it out first (dry run)', description: 'Show and log the plan and the changes it would make, without writing anything to the plant.' }),
    maxChargeW: z.number().int().min(0).max(100_000).default(5000).meta({ ...live, label: 'Most charging power', description: 'The most power, in watts, the controller may ask the battery to charge with.' }),
    maxDischargeW: z.number().int().min(0).max(100_000).default(5000).meta({ ...live, label: 'Most discharging power', description: 'The most power, in watts, the controller may ask the battery to discharge with.' }),
    minSoc: z.number().min(0).max(100).default(20).meta({ ...live, label: 'Lowest charge', description: 'The controller never discharges the battery below this state of charge (%).' }),
    maxWritesPerHour: z.number().int().min(1).max(60).default(8).meta({ ...live, label: 'Most writes an hour', description: 'Each change is written to the inverter’s memory: the controller writes only on a change, and at most this many times an hour.' }),
    staleAfterPolls: z.number().int().min(2).max(20).default(3).meta({ ...live, label: 'Stop after missed readings', description: 'When this many poll intervals pass without a good reading, the controller stops writing and hands the plant back to its own mode once the gateway answers.' }),
    checkEverySeconds: z.number().int().min(10).max(3600).default(60).meta({ ...live, label: 'Check every', description: 'How often, in seconds, the controller reads back what it set, to notice another controller changing it.' }),
    plan: z
      .object({
        targetSoc: z.number().min(0).max(100).default(90).meta({ ...live, label: 'Charge to', description: 'The state of charge (%) the price plan charges the battery to in the cheapest hours.' }),
        readyBy: hhmm.default('17:00').meta({ ...live, label: 'Ready by', description: 'The time of day the battery should be charged by (before the evening peak).' }),
        chargePowerW: z.number().int().min(100).max(100_000).default(3000).meta({ ...live, label: 'Charge at', description: 'The charging power, in watts, of the planned charging.' }),
        holdDearestHours: z.number().int().min(0).max(12).default(3).meta({ ...live, label: 'Hold for the dearest hours', description: 'How many of the dearest hours of the next day the battery is kept for (it still covers the house then).' }),
      })
      .strict()
      .default({ targetSoc: 90, readyBy: '17:00', chargePowerW: 3000, holdDearestHours: 3 }),
  })
  .strict();

export type ControlSettings = z.output<typeof controlSettings>;

export const controlSection = settingsSection({ key: 'control', schema: withDefaults(controlSettings) });

/** The control settings' fields as dotted paths: all of them are the owner's. */
export const CONTROL_OWNER_FIELDS = [
  'control.enabled',
  'control.dryRun',
  'control.mqttControl',
  'control.maxChargeW',
  'control.maxDischargeW',
  'control.minSoc',
  'control.maxWritesPerHour',
  'control.staleAfterPolls',
  'control.checkEverySeconds',
  'control.plan.targetSoc',
  'control.plan.readyBy',
  'control.plan.chargePowerW',
  'control.plan.holdDearestHours',
] as const;
