import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { httpUrlOrBlank, live, settingsSection } from '../settings-section.js';

export const ALERT_TRIGGERS = ['batterySoc', 'gridImport', 'gridExport', 'solarPower', 'homeLoad', 'batteryPower', 'gatewayOffline', 'peakNotCovered', 'importPrice', 'feedInPrice', 'feedInNegative', 'priceSpike'] as const;
/** Units a threshold may be given in, per trigger (the first is the default). */
export const ALERT_UNITS = { batterySoc: ['%'], gridImport: ['W', 'kW'], gridExport: ['W', 'kW'], solarPower: ['W', 'kW'], homeLoad: ['W', 'kW'], batteryPower: ['W', 'kW'], gatewayOffline: [''], peakNotCovered: [''], importPrice: ['/kWh'], feedInPrice: ['/kWh'], feedInNegative: [''], priceSpike: [''] } as const;
/** Each trigger in words: the rule editor's choices (the schema's `options`) and an alert message's start (triggers.ts). */
export const ALERT_TRIGGER_LABELS: Record<(typeof ALERT_TRIGGERS)[number], string> = {
  batterySoc: 'Battery SOC',
  gridImport: 'Grid import',
  gridExport: 'Grid export',
  solarPower: 'Solar power',
  homeLoad: 'Home load',
  batteryPower: 'Battery power',
  gatewayOffline: 'Gateway offline',
  peakNotCovered: 'Battery will not cover the peak window',
  importPrice: 'Import price',
  feedInPrice: 'Feed-in price',
  feedInNegative: 'Feed-in price below zero',
  priceSpike: 'Price spike',
};
/** Each comparison in words, as the editor offers it and a message says it. */
export const ALERT_CONDITION_LABELS = { atOrAbove: 'at or above', atOrBelow: 'at or below' } as const;
/** Most alert rules kept. */
export const MAX_ALERTS = 24;

export const alertSettings = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _')
      .default(() => randomBytes(6).toString('hex'))
      .meta({ ...live, generated: true, label: 'Rule number', description: 'Set for you when the rule is made.' }),
    name: z.string().trim().min(1).max(60).default('Alert').meta({ ...live, label: 'Name' }),
    enabled: z.boolean().default(true).meta({ ...live, label: 'On' }),
    trigger: z.enum(ALERT_TRIGGERS).default('batterySoc').meta({ ...live, options: ALERT_TRIGGER_LABELS, units: ALERT_UNITS, label: 'Watch', description: 'What the rule watches: the battery level, power bought from or sent to the grid, solar, home use, battery charging (or discharging, below zero), the gateway going offline, a battery that will not last through a peak-price window (from the battery outlook), or, with live prices (Amber, Octopus), the import or feed-in price per kWh, a feed-in price below zero (exporting costs money) or a price spike.' }),
    condition: z.enum(['atOrAbove', 'atOrBelow']).default('atOrBelow').meta({ ...live, options: ALERT_CONDITION_LABELS, label: 'When', description: 'Whether the alert starts when the reading reaches the level or more, or the level or less.' }),
    threshold: z.number().min(-1_000_000).max(1_000_000).default(20).meta({ ...live, label: 'Level' }),
    unit: z.enum(['%', 'W', 'kW', '/kWh', '']).nullable().default(null).meta({ ...live, label: 'Unit', description: 'The unit of the level: % for the battery level, W or kW for power, your currency per kWh for a price (0.5 is 50 cents or pence). Leave it blank for the usual unit.' }),
    settleSeconds: z.number().int().min(0).max(86_400).default(60).meta({ ...live, label: 'Wait before starting', description: 'How long, in seconds, the reading must stay past the level before the alert starts. Unless you set a wait before ending, the same wait applies when it ends.' }),
    clearSeconds: z.number().int().min(0).max(86_400).nullable().default(null).meta({ ...live, label: 'Wait before ending', description: 'How long, in seconds, the reading must be back before the alert ends. Leave it blank to use the wait before starting.' }),
    webhookUrl: httpUrlOrBlank.meta({ ...live, secret: 'locked', label: 'Web address to notify', description: 'A web address that is sent a short message when the alert starts and when it ends, such as a Home Assistant or ntfy link. Leave it blank for none.' }),
    homekit: z.boolean().default(false).meta({ ...live, label: 'Show in the Home app', description: 'Show this rule in the Home app as a contact sensor that is open while the alert is on.' }),
  })
  .strict()
  .superRefine((a, ctx) => {
    const units: readonly string[] = ALERT_UNITS[a.trigger];
    if (a.unit !== null && !units.includes(a.unit)) ctx.addIssue({ code: 'custom', path: ['unit'], message: `must be ${units.map((u) => `"${u}"`).join(' or ')} for trigger ${a.trigger}` });
    if (a.trigger === 'batterySoc' && (a.threshold < 0 || a.threshold > 100)) ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'must be 0 to 100 (%) for battery SOC' });
  });

export const alertsSection = settingsSection({
  key: 'alerts',
  schema: z
    .array(alertSettings)
    .max(MAX_ALERTS)
    .default([])
    .refine((list) => new Set(list.map((a) => a.id)).size === list.length, 'alert ids must be unique')
    .meta({ ...live, label: 'Alert rules', description: 'Notices when a reading passes a level you choose, such as the battery running low.' }),
  publicView: (alerts, blank) => (blank ? alerts.map((a) => ({ ...a, webhookUrl: '' })) : alerts),
});
