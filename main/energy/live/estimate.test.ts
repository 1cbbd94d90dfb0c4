import { describe, expect, it } from 'vitest';
import { BatteryEstimator } from './estimate.js';

describe('battery time-to-full / time-to-reserve', () => {
  it('is idle inside the deadband and warming until the direction has held 60 s and 5 samples', () => {
    const e = new BatteryEstimator();
    e.feed(0, 30);
    expect(e.estimate(0, 50, 10, 10)).toEqual({ status: 'idle' });
    for (let t = 0; t <= 50_000; t += 10_000) e.feed(t, 2000);
    expect(e.estimate(50_000, 50, 10, 10).status).toBe('warming');
    e.feed(60_000, 2000);
    expect(e.estimate(60_000, 50, 10, 10).status).toBe('ready');
  });

  it('estimates time to full while charging and to the reserve while discharging', () => {
    const e = new BatteryEstimator();
    for (let t = 0; t <= 120_000; t += 5000) e.feed(t, 2500);
    // 10 kWh battery at 50 %: 5 kWh to full at 2.5 kW = 120 minutes.
    expect(e.estimate(120_000, 50, 10, 10)).toMatchObject({ status: 'ready', direction: 'charge', target: 'full', minutesRemaining: 120, energyToGoKwh: 5 });
    const d = new BatteryEstimator();
    for (let t = 0; t <= 120_000; t += 5000) d.feed(t, -1000);
    // 40 % above a 10 % reserve of 10 kWh = 4 kWh at 1 kW = 240 minutes.
    const est = d.estimate(120_000, 50, 10, 10);
    expect(est).toMatchObject({ direction: 'discharge', target: 'reserve', minutesRemaining: 240, energyToGoKwh: 4 });
    expect(est.etaIso).toBe(new Date(120_000 + 240 * 60_000).toISOString());
    expect(d.estimate(120_000, 50, 10, 0).target).toBe('empty');
  });

  it('restarts warming on a direction change and hides times beyond 24 h', () => {
    const e = new BatteryEstimator();
    for (let t = 0; t <= 120_000; t += 5000) e.feed(t, 100);
    const slow = e.estimate(120_000, 10, 100, 0);
    expect(slow.minutesRemaining).toBeNull();
    expect(slow.etaIso).toBeNull();
    e.feed(125_000, -3000);
    expect(e.estimate(125_000, 10, 100, 0).status).toBe('warming');
  });
});
