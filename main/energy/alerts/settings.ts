import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { httpUrlOrBlank, live, settingsSection } from '../features/section.js';

export const ALERT_TRIGGERS = ['batterySoc', 'gridImport', 'gridExport', 'solarPower', 'homeLoad', 'batteryPower', 'gatewayOffline'] as const;
/** Units a threshold may be given in, per trigger (the first is the default). */
export const ALERT_UNITS = { batterySoc: ['%'], gridImport: ['W', 'kW'], gridExport: ['W', 'kW'], solarPower: ['W', 'kW'], homeLoad: ['W', 'kW'], batteryPower: ['W', 'kW'], gatewayOffline: [''] } as const;
/** Most alert rules kept. */
export const MAX_ALERTS = 24;

export const alertSettings = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _')
      .default(() => randomBytes(6).toString('hex'))
      .meta({ ...live, generated: true, description: 'Stable id; generated when omitted.' }),
    name: z.string().trim().min(1).max(60).default('Alert').meta(live),
    enabled: z.boolean().default(true).meta(live),
    trigger: z.enum(ALERT_TRIGGERS).default('batterySoc').meta({ ...live, description: 'Watched value: battery SOC (%), grid import/export, solar, home or battery power (W, battery positive charging), or gateway offline.' }),
    condition: z.enum(['atOrAbove', 'atOrBelow']).default('atOrBelow').meta({ ...live, description: 'Inclusive comparison with the threshold.' }),
    threshold: z.number().min(-1_000_000).max(1_000_000).default(20).meta(live),
    unit: z.enum(['%', 'W', 'kW', '']).nullable().default(null).meta({ ...live, description: "Unit of the threshold: % for SOC, W or kW for power; blank uses the trigger's own unit." }),
    settleSeconds: z.number().int().min(0).max(86_400).default(60).meta({ ...live, description: 'How long the condition must hold before the alert fires (and, unless clearSeconds is set, clears).' }),
    clearSeconds: z.number().int().min(0).max(86_400).nullable().default(null).meta({ ...live, description: 'How long the condition must be gone before the alert clears; blank uses settleSeconds.' }),
    webhookUrl: httpUrlOrBlank.meta({ ...live, secret: 'locked', description: 'POSTed JSON when the alert fires or clears; blank for none.' }),
    homekit: z.boolean().default(false).meta({ ...live, description: 'Show this rule in the Home app as a contact sensor (open while the alert is active).' }),
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
    .meta({ ...live, description: 'Alert rules; the array is replaced whole on update.' }),
  publicView: (alerts, blank) => (blank ? alerts.map((a) => ({ ...a, webhookUrl: '' })) : alerts),
});
