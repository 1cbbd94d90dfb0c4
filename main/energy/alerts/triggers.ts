import type { LiveState } from '../live-state.js';
import type { SharedLiveFields } from '../live/shared-fields.js';
import type { PriceInterval } from '../prices/price-book.js';
import type { z } from 'zod';
import { ALERT_CONDITION_LABELS, ALERT_TRIGGER_LABELS, ALERT_UNITS, type alertSettings } from './settings.js';

export type AlertRule = z.output<typeof alertSettings>;
export type Trigger = AlertRule['trigger'];

/** The live state as the rules read it: the core's readings and the battery outlook's verdict (shared-fields.ts). */
export type AlertState = LiveState & Readonly<Pick<SharedLiveFields, 'outlook'>>;

interface TriggerDef {
  /**
   * The reading in the trigger's base unit (% or W; currency per kWh; 1/0 for a yes/no), null when
   * unknown. `price` is the live price interval now (null without a live price source).
   */
  read(state: AlertState, price: PriceInterval | null): number | null;
}

const pos = (v: number | null) => (v === null ? null : Math.max(0, v));

/** What each trigger watches. Grid import and export are the two signs of the grid flow, as magnitudes. */
export const TRIGGERS: Record<Trigger, TriggerDef> = {
  batterySoc: { read: (s) => s.battery.soc },
  gridImport: { read: (s) => pos(s.power.grid) },
  gridExport: { read: (s) => pos(s.power.grid === null ? null : -s.power.grid) },
  solarPower: { read: (s) => s.power.solar },
  homeLoad: { read: (s) => s.power.home },
  batteryPower: { read: (s) => s.power.battery },
  gatewayOffline: { read: (s) => (s.connected ? 0 : 1) },
  // 1 when the battery outlook (outlook/) expects the reserve inside a peak window today.
  peakNotCovered: { read: (s) => (s.outlook?.coversPeak === false ? 1 : s.outlook?.coversPeak === true ? 0 : null) },
  // Live prices (prices/): the current interval's, in the household's signs.
  importPrice: { read: (_s, p) => p?.importPerKwh ?? null },
  feedInPrice: { read: (_s, p) => p?.feedInPerKwh ?? null },
  feedInNegative: { read: (_s, p) => (p?.feedInPerKwh == null ? null : p.feedInPerKwh < 0 ? 1 : 0) },
  priceSpike: { read: (_s, p) => (p ? (p.spike ? 1 : 0) : null) },
};

/** Triggers that are a yes/no state (1 holds) rather than a reading against a threshold. */
export const isYesNoTrigger = (trigger: Trigger): boolean => trigger === 'gatewayOffline' || trigger === 'peakNotCovered' || trigger === 'feedInNegative' || trigger === 'priceSpike';

export const unitOf = (rule: AlertRule): string => rule.unit ?? ALERT_UNITS[rule.trigger][0];

/** The reading in the rule's unit (kW divides watts by 1000). */
export function readingOf(rule: AlertRule, state: LiveState, price: PriceInterval | null = null): number | null {
  const base = TRIGGERS[rule.trigger].read(state, price);
  if (base === null || !Number.isFinite(base)) return null;
  return unitOf(rule) === 'kW' ? base / 1000 : base;
}

/**
 * Whether the rule's condition holds (comparisons are inclusive). Gateway offline ignores the
 * comparison: it holds while the gateway connection is down.
 */
export function conditionHolds(rule: AlertRule, reading: number | null): boolean {
  if (reading === null) return false;
  if (isYesNoTrigger(rule.trigger)) return reading === 1;
  return rule.condition === 'atOrAbove' ? reading >= rule.threshold : reading <= rule.threshold;
}

const fmt = (v: number) => (Math.abs(v) >= 100 ? String(Math.round(v)) : String(Math.round(v * 100) / 100));

/** A sentence for people: "Battery SOC is 18 % (at or below 20 %)". */
export function messageOf(rule: AlertRule, reading: number | null, detail: string | null = null): string {
  if (rule.trigger === 'peakNotCovered') return reading === 1 ? `The battery will not cover the peak window${detail ? ` (${detail})` : ''}` : 'The battery is expected to cover the peak window';
  if (rule.trigger === 'gatewayOffline') return reading === 1 ? 'The gateway is offline' : 'The gateway is back online';
  if (rule.trigger === 'feedInNegative') return reading === 1 ? `Exporting costs money now: the feed-in price is below zero${detail ? ` (${detail})` : ''}` : 'The feed-in price is back above zero';
  if (rule.trigger === 'priceSpike') return reading === 1 ? `The electricity price is spiking${detail ? ` (${detail})` : ''}` : 'The price spike is over';
  const unit = unitOf(rule) === '/kWh' ? `${detail ?? ''}/kWh` : unitOf(rule);
  // Prices read to a hundredth of a cent (0.0435 AUD/kWh); other readings to two places.
  const f = unitOf(rule) === '/kWh' ? (v: number) => String(Math.round(v * 10_000) / 10_000) : fmt;
  const now = reading === null ? 'unknown' : `${f(reading)} ${unit}`;
  return `${ALERT_TRIGGER_LABELS[rule.trigger]} is ${now} (${ALERT_CONDITION_LABELS[rule.condition]} ${f(rule.threshold)} ${unit})`;
}
