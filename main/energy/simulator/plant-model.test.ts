import { describe, expect, it } from 'vitest';
import { PlantModel } from './plant-model.js';

describe('the simulated plant follows the wall clock of its zone', () => {
  // 02:00 UTC on 21 June is 12:00 in Sydney (AEST, +10): midday there, night in UTC.
  const at = Date.UTC(2026, 5, 21, 2, 0);
  const pv = (timeZone: string) => new PlantModel({ now: () => at, timeZone }).flows.pvNative;

  it('has the sun up at local noon and down at local 02:00, whatever zone the machine is in', () => {
    expect(pv('Australia/Sydney')).toBeGreaterThan(0);
    expect(pv('UTC')).toBe(0);
  });

  it('starts a new day at local midnight: today\'s production restarts there', () => {
    // Sydney's midnight is 14:00 UTC: an hour before it counts, two seconds after it start afresh.
    let t = Date.UTC(2026, 5, 20, 13, 0);
    const plant = new PlantModel({ now: () => t, timeZone: 'Australia/Sydney' });
    t = Date.UTC(2026, 5, 20, 13, 59, 59);
    plant.step();
    expect(plant.totals.consumedToday).toBeGreaterThan(0.5);
    t = Date.UTC(2026, 5, 20, 14, 0, 1);
    plant.step();
    expect(plant.totals.consumedToday).toBeLessThan(0.01);
  });
});
