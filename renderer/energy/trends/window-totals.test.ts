import { describe, expect, it } from 'vitest';
import type { TariffConfig } from '../../../main/energy/tariff/windows.js';
import { sampleSpacingSeconds, windowTotals } from './window-totals.js';

const MIN = 60_000;
const flat: TariffConfig = {
  importRate: 0.3,
  feedInRate: 0.05,
  dailySupplyCharge: 1,
  windows: [],
  superExport: { enabled: false, rate: 0, start: '00:00', end: '00:00', capKwh: 0 },
  zeroDraw: { enabled: false, credit: 0, start: '00:00', end: '00:00', toleranceKwh: 0 },
};

describe('sampleSpacingSeconds', () => {
  it('says one per 60 s for samples a minute apart even when 10 s buckets were asked for', () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ t: i * MIN, soc: 50 }));
    expect(sampleSpacingSeconds(rows, 10)).toBe(60);
  });
  it('keeps the bucket size when the data is denser than the buckets', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ t: i * 120_000, soc: 50 }));
    expect(sampleSpacingSeconds(rows, 120)).toBe(120);
  });
  it('says one per 60 s for 36 s buckets over one-a-minute samples (gaps of 36 and 72 s)', () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ t: Math.floor((i * 60) / 36) * 36_000, soc: 50 }));
    expect(sampleSpacingSeconds(rows, 36)).toBe(60);
  });
  it('says one per 60 s when a bucket boundary now and then makes a gap of 70 s (a mean of 61 s)', () => {
    const rows = Array.from({ length: 11 }, (_, i) => ({ t: i * MIN + (i >= 5 ? 10_000 : 0), soc: 50 }));
    expect(sampleSpacingSeconds(rows, 10)).toBe(60);
    // A real 45 s spacing stays 45 s.
    expect(sampleSpacingSeconds(Array.from({ length: 20 }, (_, i) => ({ t: i * 45_000, soc: 50 })), 10)).toBe(45);
  });
  it('is not fooled by one long gap', () => {
    const rows = [0, 10, 20, 30, 3600].map((s) => ({ t: s * 1000, soc: 1 }));
    expect(sampleSpacingSeconds(rows, 10)).toBe(10);
  });
});

describe('windowTotals', () => {
  it('one hour at 2 kW solar and 1 kW home with 1 kW export is 2 kWh, 1 kWh and 1 kWh', () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ t: i * MIN, soc: 50, solar: 2000, home: 1000, grid: -1000, battery: 0 }));
    const r = windowTotals(rows, 60);
    expect(r.hours).toBeCloseTo(1, 9);
    expect(r.solarKwh).toBeCloseTo(2, 9);
    expect(r.homeKwh).toBeCloseTo(1, 9);
    expect(r.exportKwh).toBeCloseTo(1, 9);
    expect(r.importKwh).toBe(0);
    expect(r.cost).toBeNull();
  });
  it('prices import at the import rate and credits export at the feed-in rate', () => {
    const rows = [
      ...Array.from({ length: 30 }, (_, i) => ({ t: i * MIN, soc: 50, grid: 2000, battery: -500 })),
      ...Array.from({ length: 30 }, (_, i) => ({ t: (30 + i) * MIN, soc: 50, grid: -4000, battery: 1000 })),
    ];
    const r = windowTotals(rows, 60, { config: flat, timeZone: 'UTC' });
    expect(r.importKwh).toBeCloseTo(1, 9); // 2 kW for half an hour
    expect(r.exportKwh).toBeCloseTo(2, 9); // 4 kW for half an hour
    expect(r.chargeKwh).toBeCloseTo(0.5, 9);
    expect(r.dischargeKwh).toBeCloseTo(0.25, 9);
    expect(r.cost).toBeCloseTo(1 * 0.3 - 2 * 0.05, 9);
  });
  it('uses the time-of-use rate in force at each sample', () => {
    // 1970-01-01 was a Thursday; a peak window 00:30-01:00 every day at 1.00 per kWh.
    const tou: TariffConfig = { ...flat, windows: [{ name: 'Peak', start: '00:30', end: '01:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], importRate: 1, feedInRate: null }] };
    const rows = Array.from({ length: 60 }, (_, i) => ({ t: i * MIN, soc: 50, grid: 1000 }));
    const r = windowTotals(rows, 60, { config: tou, timeZone: 'UTC' });
    expect(r.cost).toBeCloseTo(0.5 * 0.3 + 0.5 * 1, 9);
  });
  it('does not count a gap where nothing was recorded', () => {
    const rows = [
      { t: 0, soc: 1, solar: 1000 },
      { t: MIN, soc: 1, solar: 1000 },
      { t: 5 * 3_600_000, soc: 1, solar: 1000 },
    ];
    expect(windowTotals(rows, 60).solarKwh).toBeCloseTo((3 * 1000) / 60 / 1000, 9);
  });
});
