import { z } from 'zod';
import type { EnergySettings } from '../settings/energy-settings.js';
import type { Carried, NotCarried } from './carried.js';

type Rule = EnergySettings['alerts'][number];

/** One of its alert items (`alerts.items[]`). */
export const sigenAlertSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  enabled: z.boolean().optional(),
  trigger: z.looseObject({ type: z.string(), threshold: z.number().optional(), afterMinutes: z.number().optional() }),
  notify: z.looseObject({ raised: z.boolean().optional(), cleared: z.boolean().optional() }).optional(),
  channels: z
    .looseObject({
      homekit: z.looseObject({ enabled: z.boolean().optional(), sensorName: z.string().optional() }).optional(),
      webhook: z.looseObject({ enabled: z.boolean().optional(), url: z.string().optional() }).optional(),
    })
    .optional(),
});
type SigenAlert = z.output<typeof sigenAlertSchema>;

/**
 * Its threshold triggers and ours. Its thresholds are inclusive (`>=` / `<=`), in W or %, and
 * hold for 2 minutes before raising and 2 minutes before clearing; the gateway-offline trigger
 * raises after `afterMinutes` and clears after 30 s.
 */
const THRESHOLD_TRIGGERS: Record<string, Pick<Rule, 'trigger' | 'condition' | 'unit'>> = {
  batteryBelow: { trigger: 'batterySoc', condition: 'atOrBelow', unit: '%' },
  batteryAbove: { trigger: 'batterySoc', condition: 'atOrAbove', unit: '%' },
  gridImportAbove: { trigger: 'gridImport', condition: 'atOrAbove', unit: 'W' },
  gridExportAbove: { trigger: 'gridExport', condition: 'atOrAbove', unit: 'W' },
  solarAbove: { trigger: 'solarPower', condition: 'atOrAbove', unit: 'W' },
  loadAbove: { trigger: 'homeLoad', condition: 'atOrAbove', unit: 'W' },
};
const THRESHOLD_HOLD_SECONDS = 120;
const OFFLINE_CLEAR_SECONDS = 30;

/** Triggers it has that this bridge does not watch. */
const NO_EQUAL: Record<string, string> = {
  batteryHealthBelow: 'battery health',
  batteryEmptyWithin: 'time until the battery reaches its reserve',
  outdoorTempAbove: 'outdoor temperature',
  outdoorTempBelow: 'outdoor temperature',
  costRateAbove: 'grid cost per hour',
};

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function mapSigenAlerts(items: SigenAlert[]): { rules: Rule[]; carried: Carried[]; notCarried: NotCarried[] } {
  const rules: Rule[] = [];
  const carried: Carried[] = [];
  const notCarried: NotCarried[] = [];
  items.forEach((a, i) => {
    const label = `alerts.items[${i}] "${a.name ?? a.id ?? i}"`;
    const type = a.trigger.type;
    const webhook = a.channels?.webhook;
    const homekit = a.channels?.homekit;
    const base = {
      id: a.id && ID.test(a.id) && !rules.some((r) => r.id === a.id) ? a.id : `sigen-${i + 1}`,
      name: (a.name ?? '').trim().slice(0, 60) || 'Alert',
      enabled: a.enabled ?? true,
      webhookUrl: webhook?.enabled && webhook.url ? webhook.url.trim() : '',
      homekit: homekit?.enabled ?? false,
    };
    let rule: Rule;
    if (type === 'gatewayOffline') {
      const minutes = a.trigger.afterMinutes ?? 3;
      rule = { ...base, trigger: 'gatewayOffline', condition: 'atOrAbove', threshold: 1, unit: null, settleSeconds: Math.round(minutes * 60), clearSeconds: OFFLINE_CLEAR_SECONDS };
    } else if (THRESHOLD_TRIGGERS[type] && a.trigger.threshold !== undefined) {
      rule = { ...base, ...THRESHOLD_TRIGGERS[type], threshold: a.trigger.threshold, settleSeconds: THRESHOLD_HOLD_SECONDS, clearSeconds: THRESHOLD_HOLD_SECONDS };
    } else {
      notCarried.push({ setting: label, reason: NO_EQUAL[type] ? `its "${type}" trigger watches the ${NO_EQUAL[type]}, which this bridge's alerts do not watch` : `its trigger "${type}" has no equal here` });
      return;
    }
    rules.push(rule);
    carried.push({ from: label, to: `alerts[${rules.length - 1}] (${rule.trigger}${rule.trigger === 'gatewayOffline' ? ` after ${rule.settleSeconds / 60} min` : ` ${rule.condition} ${rule.threshold} ${rule.unit}`}${rule.webhookUrl ? ', webhook' : ''}${rule.homekit ? ', Home app sensor' : ''})` });
    if (webhook && !webhook.enabled && webhook.url) notCarried.push({ setting: `${label} webhook`, reason: 'its webhook was switched off; this bridge has no off switch for a rule’s webhook, so its URL was left out (add it in Settings → Alerts to turn it on)' });
    if (webhook?.enabled && rule.webhookUrl) {
      if (a.notify?.cleared === false) notCarried.push({ setting: `${label} notify.cleared`, reason: 'it did not post when the alert cleared; this bridge posts both when an alert fires and when it clears' });
      if (a.notify?.raised === false) notCarried.push({ setting: `${label} notify.raised`, reason: 'it did not post when the alert was raised; this bridge posts both when an alert fires and when it clears' });
    }
    if (homekit?.enabled && homekit.sensorName && homekit.sensorName.trim() !== rule.name) {
      notCarried.push({ setting: `${label} sensorName`, reason: `its Home app sensor was named "${homekit.sensorName}"; this bridge names the sensor after the rule ("${rule.name}")` });
    }
  });
  return { rules, carried, notCarried };
}
