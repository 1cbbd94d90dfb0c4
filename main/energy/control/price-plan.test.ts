import { describe, expect, it } from 'vitest';
import { bookOf, type PriceInterval } from '../prices/price-book.js';
import { buildPlan, planStepAt, type PlanOptions } from './price-plan.js';

/** A day of half-hour prices in UTC from `day`: cheap 01:00–03:00, dear 17:00–20:00, feed-in negative 11:00–13:00. */
const day = Date.UTC(2026, 5, 21);
const H = 3_600_000;
function intervals(): PriceInterval[] {
  return Array.from({ length: 48 }, (_, i) => {
    const start = day + i * H / 2;
    const hour = i / 2;
    const importPerKwh = hour >= 1 && hour < 3 ? 0.08 : hour >= 17 && hour < 20 ? 0.55 : 0.3;
    const feedInPerKwh = hour >= 11 && hour < 13 ? -0.03 : 0.05;
    return { start, end: start + H / 2, importPerKwh, feedInPerKwh, descriptor: null, kind: 'forecast', estimate: false, spike: false };
  });
}
const opts: PlanOptions = { soc: 50, capacityKwh: 10, timeZone: 'UTC', minSoc: 20, targetSoc: 90, readyBy: '17:00', chargePowerW: 2000, holdDearestHours: 3 };
const hhmm = (iso: string) => iso.slice(11, 16);

describe('the plan that follows the price', () => {
  it('charges in the cheapest hours before the peak, then holds right through to the dearest hours', () => {
    const plan = buildPlan(bookOf('amber', intervals()), day, opts);
    expect(plan.steps.map((s) => [hhmm(s.start), hhmm(s.end), s.action, s.peak ?? false])).toEqual([
      ['00:00', '01:00', 'automatic', false],
      ['01:00', '03:00', 'charge', false],
      // Holding comes first, also while feed-in costs money (11:00–13:00): a battery let discharge
      // then would be below its charge at the peak.
      ['03:00', '17:00', 'hold', false],
      ['17:00', '20:00', 'automatic', true],
      ['20:00', '00:00', 'automatic', false],
    ]);
    // 40 % of 10 kWh at 2 kW: four half hours.
    expect(plan.steps[1]).toMatchObject({ kwh: 4, reason: 'charge 4 kWh 01:00–03:00: the cheapest hours before the 17:00 peak', mode: { mode: 'charge', targetSoc: 90, powerW: 2000, source: 'grid' } });
    expect(plan.steps[2]!.reason).toBe('hold 03:00–17:00: keep the charge for the dearest hours (from 17:00, 0.55/kWh and up)');
    expect(plan.steps[3]!.reason).toBe('automatic 17:00–20:00: the dearest hours, the battery covers the house');
  });

  it('no export while feed-in costs money, outside a hold', () => {
    const plan = buildPlan(bookOf('amber', intervals()), day, { ...opts, holdDearestHours: 0 });
    expect(plan.steps.map((s) => [hhmm(s.start), hhmm(s.end), s.action])).toEqual([
      ['00:00', '01:00', 'automatic'],
      ['01:00', '03:00', 'charge'],
      ['03:00', '11:00', 'automatic'],
      ['11:00', '13:00', 'exportLimit'],
      ['13:00', '00:00', 'automatic'],
    ]);
    expect(plan.steps[3]).toMatchObject({ reason: 'no export 11:00–13:00: feed-in costs money then', mode: { mode: 'exportLimit', limitW: 0 } });
  });

  it('a fuller battery needs fewer cheap intervals: the cheapest first', () => {
    const plan = buildPlan(bookOf('amber', intervals()), day, { ...opts, soc: 80 });
    expect(plan.steps.find((s) => s.action === 'charge')).toMatchObject({ kwh: 1, start: new Date(day + H).toISOString(), end: new Date(day + 1.5 * H).toISOString() });
  });

  it('no live prices: no plan, said in words', () => {
    expect(buildPlan(null, day, opts)).toMatchObject({ steps: [], message: expect.stringContaining('No live prices') });
  });

  it('the step for a time carries the mode the controller applies', () => {
    const plan = buildPlan(bookOf('amber', intervals()), day, opts);
    expect(planStepAt(plan, day + 2 * H)).toMatchObject({ mode: { mode: 'charge' } });
    expect(planStepAt(plan, day + 12 * H)).toMatchObject({ mode: { mode: 'hold' } });
  });
});
