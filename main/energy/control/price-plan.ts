import { zoneOffset } from '../../core/time-zone.js';
import type { PriceBook, PriceInterval } from '../prices/price-book.js';
import type { ModeRequest } from './modes.js';

export interface PlanOptions {
  soc: number | null;
  capacityKwh: number | null;
  timeZone: string;
  minSoc: number;
  targetSoc: number;
  /** Local time of day (HH:MM) the battery should be charged by. */
  readyBy: string;
  chargePowerW: number;
  holdDearestHours: number;
}

export interface PlanStep {
  /** ISO 8601 bounds, [start, end). */
  start: string;
  end: string;
  action: 'charge' | 'hold' | 'exportLimit' | 'automatic';
  /** The mode the controller puts the plant in for the step. */
  mode: ModeRequest;
  /** Why, in words: "charge 2.1 kWh 01:00–02:30: the cheapest hours before the 17:00 peak". */
  reason: string;
  /** Energy the step charges (kWh, charge steps). */
  kwh?: number;
  /** True for the dearest hours the battery was held for (an Automatic step: the battery covers the house). */
  peak?: boolean;
}

export interface Plan {
  generatedAt: string;
  source: PriceBook['source'] | null;
  steps: PlanStep[];
  message: string;
}

const HOUR = 3_600_000;
const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

/**
 * The next 24 h as a plan that follows the price (issue 44, item 2), from the live prices only:
 * charge in the cheapest intervals needed to reach the target SOC by the ready-by time, hold the
 * battery from then until the dearest hours (so its charge is there for them), and limit export to
 * zero while feed-in costs money outside the hold. Every step says why. Without live prices there is no plan.
 */
export function buildPlan(book: PriceBook | null, now: number, o: PlanOptions): Plan {
  const generatedAt = new Date(now).toISOString();
  const intervals = book ? book.between(now, now + 24 * HOUR) : [];
  if (!book || !intervals.length) {
    return { generatedAt, source: book?.source ?? null, steps: [], message: 'No live prices: the plan needs a price source (Amber or Octopus). The plant runs on its own.' };
  }
  const offset = zoneOffset(o.timeZone);
  const hhmm = (t: number) => new Date(t + offset(t)).toISOString().slice(11, 16);
  const ready = nextLocalTime(now, o.readyBy, offset);
  const action = new Map<PriceInterval, PlanStep['action']>();
  const hours = (iv: PriceInterval) => (iv.end - Math.max(iv.start, now)) / HOUR;

  // Charge: the cheapest intervals before the ready-by time, until the energy needed is reached.
  let needKwh = o.soc !== null && o.capacityKwh !== null ? Math.max(0, ((o.targetSoc - o.soc) / 100) * o.capacityKwh) : 0;
  const before = intervals.filter((iv) => iv.start < ready).sort((a, b) => a.importPerKwh - b.importPerKwh || a.start - b.start);
  const chargeKwh = new Map<PriceInterval, number>();
  for (const iv of before) {
    if (needKwh <= 0.01) break;
    const kwh = Math.min(needKwh, (o.chargePowerW / 1000) * hours(iv));
    action.set(iv, 'charge');
    chargeKwh.set(iv, kwh);
    needKwh -= kwh;
  }
  // Hold: from the last charge until the dearest hours, while the price is below theirs.
  const dearest = [...intervals].sort((a, b) => b.importPerKwh - a.importPerKwh || a.start - b.start);
  const dear = new Set<PriceInterval>();
  let dearHours = 0;
  for (const iv of dearest) {
    if (dearHours >= o.holdDearestHours) break;
    if (action.has(iv)) continue;
    dear.add(iv);
    dearHours += hours(iv);
  }
  const firstDear = Math.min(...[...dear].map((iv) => iv.start));
  const dearFloor = Math.min(...[...dear].map((iv) => iv.importPerKwh));
  const lastCharge = Math.max(now, ...[...chargeKwh.keys()].map((iv) => iv.end));
  const dearWords = dear.size ? `${hhmm(firstDear)}, ${round(dearFloor, 4)}/kWh and up` : '';
  for (const iv of intervals) {
    if (!action.has(iv) && !dear.has(iv) && dear.size && Math.max(iv.start, now) >= lastCharge && iv.start < firstDear && iv.importPerKwh < dearFloor) action.set(iv, 'hold');
  }
  // Export limit: while feed-in costs money, outside the hold (holding comes first: a battery let
  // discharge to cover the house before the peak is charged again at once, and solar surplus still
  // charges a held battery, so less is exported anyway).
  for (const iv of intervals) if (!action.has(iv) && !dear.has(iv) && iv.feedInPerKwh !== null && iv.feedInPerKwh < 0) action.set(iv, 'exportLimit');

  // Merge runs of the same action into steps, each with its reason.
  const steps: PlanStep[] = [];
  const peak = o.readyBy;
  const tags: string[] = [];
  for (const iv of intervals) {
    const a = action.get(iv) ?? 'automatic';
    // The dearest hours are a step of their own (Automatic: the battery covers the house then).
    const tag = dear.has(iv) ? 'peak' : a;
    const start = Math.max(iv.start, now);
    const last = steps[steps.length - 1];
    if (last && tags[tags.length - 1] === tag && Date.parse(last.end) === start) {
      last.end = new Date(iv.end).toISOString();
      if (a === 'charge') last.kwh = round((last.kwh ?? 0) + (chargeKwh.get(iv) ?? 0));
    } else {
      tags.push(tag);
      steps.push({ start: new Date(start).toISOString(), end: new Date(iv.end).toISOString(), action: a, mode: { mode: 'automatic' }, reason: '', ...(a === 'charge' ? { kwh: round(chargeKwh.get(iv) ?? 0) } : {}), ...(tag === 'peak' ? { peak: true } : {}) });
    }
  }
  steps.forEach((s, i) => {
    const span = `${hhmm(Date.parse(s.start))}–${hhmm(Date.parse(s.end))}`;
    const until = { kind: 'time' as const, at: s.end };
    if (s.action === 'charge') {
      s.mode = { mode: 'charge', targetSoc: o.targetSoc, powerW: o.chargePowerW, source: 'grid', end: until };
      s.reason = `charge ${s.kwh} kWh ${span}: the cheapest hours before the ${peak} peak`;
    } else if (s.action === 'hold') {
      s.mode = { mode: 'hold', end: until };
      s.reason = `hold ${span}: keep the charge for the dearest hours (from ${dearWords})`;
    } else if (s.action === 'exportLimit') {
      s.mode = { mode: 'exportLimit', limitW: 0, end: until };
      s.reason = `no export ${span}: feed-in costs money then`;
    } else {
      s.reason = tags[i] === 'peak' ? `automatic ${span}: the dearest hours, the battery covers the house` : `automatic ${span}: the plant runs on its own`;
    }
  });
  const acting = steps.filter((s) => s.action !== 'automatic').length;
  return { generatedAt, source: book.source, steps, message: acting ? `${acting} planned steps in the next 24 h.` : 'Nothing to do in the next 24 h: the plant runs on its own.' };
}

/** The plan's step covering `at` (undefined: none). */
export function stepCovering(plan: Plan, at: number): PlanStep | undefined {
  return plan.steps.find((x) => Date.parse(x.start) <= at && at < Date.parse(x.end));
}

/** The step covering `at` with a key that changes when the step does (null: none). */
export function planStepAt(plan: Plan, at: number): { key: string; mode: ModeRequest; reason: string } | null {
  const s = stepCovering(plan, at);
  if (!s) return null;
  return { key: `${s.action}@${s.end}`, mode: s.mode, reason: s.reason };
}

/** The next instant after `now` whose local wall clock reads `hhmm`. */
function nextLocalTime(now: number, hhmm: string, offset: (t: number) => number): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const wall = new Date(now + offset(now));
  let t = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), h, m) - offset(now);
  if (t <= now) t += 24 * HOUR;
  return t;
}
