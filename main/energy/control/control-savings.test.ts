import { describe, expect, it } from 'vitest';
import { ControlSavings } from './control-savings.js';

/** Today's control savings from polls 5 minutes apart (UTC day); energies and prices worked by hand. */
const M = 60_000;
const t0 = Date.UTC(2026, 10, 30, 11, 0);
const charge = (importPerKwh: number) => ({ charge: true, peak: false, importPerKwh });
const peak = (importPerKwh: number) => ({ charge: false, peak: true, importPerKwh });

function tracker() {
  return new ControlSavings(() => 'UTC', () => 15 * M);
}

describe('what following the price saved today', () => {
  it('grid energy charged in charge steps against battery energy in the peak, each at its price', () => {
    const s = tracker();
    s.record(t0, 0, 0);
    s.setStep(t0, charge(-0.04));
    // 5 minutes at 5 kW from the grid (6 kW imported: the house takes the rest).
    s.record(t0 + 5 * M, 5000, 6000);
    s.setStep(t0 + 5 * M, charge(0.08));
    // Half of 4 kW comes from the grid (the panels give the rest): 2 kW counts.
    s.record(t0 + 10 * M, 4000, 2000);
    s.setStep(t0 + 10 * M, null);
    s.record(t0 + 15 * M, 5000, 5000);
    const peakStart = t0 + 7 * 60 * M;
    s.record(peakStart, -1000, 0);
    s.setStep(peakStart, peak(0.6));
    // 30 minutes at 1.2 kW out of the battery, a poll every 5.
    for (let t = peakStart + 5 * M; t <= peakStart + 30 * M; t += 5 * M) {
      s.record(t, -1200, 0);
      s.setStep(t, peak(0.6));
    }
    const today = s.today(peakStart + 30 * M);
    const chargedKwh = (5 * 5) / 60 + (2 * 5) / 60;
    const chargedCost = ((5 * 5) / 60) * -0.04 + ((2 * 5) / 60) * 0.08;
    expect(today.chargedKwh).toBeCloseTo(chargedKwh, 3);
    expect(today.chargedCost).toBeCloseTo(chargedCost, 4);
    expect(today.peakKwh).toBeCloseTo(0.6, 3);
    expect(today.peakPrice).toBeCloseTo(0.6, 4);
    // min(0.583, 0.6) kWh × (0.60 − (−0.0114)) per kWh
    expect(today.saved).toBeCloseTo(Math.min(chargedKwh, 0.6) * (0.6 - chargedCost / chargedKwh), 2);
  });

  it('counts nothing while the plan is not acting (off, a dry run: no step set) or charges from the sun', () => {
    const s = tracker();
    s.record(t0, 0, 0);
    s.record(t0 + 5 * M, 5000, 6000);
    s.setStep(t0 + 5 * M, charge(-0.04));
    s.record(t0 + 10 * M, 3000, -500);
    expect(s.today(t0 + 10 * M)).toMatchObject({ chargedKwh: 0, peakKwh: 0, saved: null });
  });

  it('a gap longer than the stale limit is not counted, and a new day starts from nothing', () => {
    const s = tracker();
    s.record(t0, 0, 0);
    s.setStep(t0, charge(-0.04));
    s.record(t0 + 20 * M, 5000, 6000);
    expect(s.today(t0 + 20 * M).chargedKwh).toBe(0);
    s.setStep(t0 + 20 * M, charge(-0.04));
    s.record(t0 + 25 * M, 5000, 6000);
    expect(s.today(t0 + 25 * M).chargedKwh).toBeCloseTo(25 / 60, 3);
    expect(s.today(t0 + 24 * 60 * M)).toMatchObject({ date: '2026-12-01', chargedKwh: 0 });
  });
});
