import type { PriceInterval } from '../prices/price-book.js';
import type { ActiveAlert } from './alert-entry.js';
import { conditionHolds, isYesNoTrigger, messageOf, readingOf, unitOf, type AlertRule, type AlertState } from './triggers.js';

export type { ActiveAlert };

export interface AlertTransition {
  event: 'fired' | 'cleared';
  rule: AlertRule;
  alert: ActiveAlert;
  /** Epoch ms of the transition. */
  at: number;
}

interface RuleState {
  /** JSON of the rule as evaluated: an edited rule starts over. */
  key: string;
  active: boolean;
  /** When the condition began to hold (inactive) or stopped holding (active); null when stable. */
  changingSince: number | null;
  firedAt: number;
  reading: number | null;
  /** What a yes/no trigger adds to its message (the battery outlook's sentence). */
  detail: string | null;
}

/**
 * Evaluates alert rules against the live state. A rule fires once its condition has held for
 * `settleSeconds`, and clears once the condition has been gone for `clearSeconds` (default the
 * settle time); a condition that flips back inside the settle time starts the wait over.
 */
export class AlertEngine {
  private readonly rules = new Map<string, RuleState>();

  /**
   * Evaluates every enabled rule at `now`; returns the transitions (fire, clear) that happened.
   * `prices`: the live price interval now and the currency (price triggers), absent without live prices.
   */
  evaluate(rules: readonly AlertRule[], state: AlertState, now: number, prices?: { current: PriceInterval | null; currency: string }): AlertTransition[] {
    const out: AlertTransition[] = [];
    const seen = new Set<string>();
    for (const rule of rules) {
      if (!rule.enabled) continue;
      seen.add(rule.id);
      const key = JSON.stringify({ ...rule, name: '', webhookUrl: '' });
      let st = this.rules.get(rule.id);
      if (!st || st.key !== key) {
        st = { key, active: false, changingSince: null, firedAt: 0, reading: null, detail: null };
        this.rules.set(rule.id, st);
      }
      const price = prices?.current ?? null;
      const reading = readingOf(rule, state, price);
      st.reading = reading;
      st.detail = rule.trigger === 'peakNotCovered' ? (state.outlook?.message ?? null) : priceDetail(rule, price, prices?.currency ?? '');
      const holds = conditionHolds(rule, reading);
      if (holds === st.active) {
        st.changingSince = null;
        continue;
      }
      st.changingSince ??= now;
      const waitS = st.active ? (rule.clearSeconds ?? rule.settleSeconds) : rule.settleSeconds;
      if (now - st.changingSince < waitS * 1000) continue;
      st.changingSince = null;
      if (!st.active) {
        st.active = true;
        st.firedAt = now;
        out.push({ event: 'fired', rule, alert: entryOf(rule, st), at: now });
      } else {
        const alert = entryOf(rule, st);
        st.active = false;
        out.push({ event: 'cleared', rule, alert, at: now });
      }
    }
    for (const id of [...this.rules.keys()]) if (!seen.has(id)) this.rules.delete(id);
    return out;
  }

  /** The active alerts, in rule order, as `/api/state`, the snapshot and SSE show them. */
  active(rules: readonly AlertRule[]): ActiveAlert[] {
    return rules.flatMap((r) => {
      const st = this.rules.get(r.id);
      return st?.active && r.enabled ? [entryOf(r, st)] : [];
    });
  }

  /** Per rule: active, and since when the condition has been changing (pending fire or clear). */
  status(id: string): { active: boolean; since: number | null; changingSince: number | null } {
    const st = this.rules.get(id);
    return { active: st?.active ?? false, since: st?.active ? st.firedAt : null, changingSince: st?.changingSince ?? null };
  }
}

function entryOf(rule: AlertRule, st: RuleState): ActiveAlert {
  return {
    id: rule.id,
    name: rule.name,
    trigger: rule.trigger,
    message: messageOf(rule, st.reading, st.detail),
    condition: {
      value: rule.trigger,
      comparison: isYesNoTrigger(rule.trigger) ? 'atOrAbove' : rule.condition,
      threshold: isYesNoTrigger(rule.trigger) ? 1 : rule.threshold,
      unit: unitOf(rule),
      reading: st.reading === null ? null : Math.round(st.reading * 10_000) / 10_000,
    },
    since: new Date(st.firedAt).toISOString(),
  };
}

const money = (v: number, currency: string) => `${Math.round(v * 10_000) / 10_000} ${currency}/kWh`;

/** What a price trigger adds to its message: the currency (thresholds) or the prices now (yes/no). */
function priceDetail(rule: AlertRule, price: PriceInterval | null, currency: string): string | null {
  if (rule.trigger === 'importPrice' || rule.trigger === 'feedInPrice') return currency;
  if (!price) return null;
  if (rule.trigger === 'feedInNegative' && price.feedInPerKwh !== null) return `feed-in ${money(price.feedInPerKwh, currency)}`;
  if (rule.trigger === 'priceSpike') return `import ${money(price.importPerKwh, currency)}`;
  return null;
}
