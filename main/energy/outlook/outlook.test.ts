import { describe, expect, it } from 'vitest';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { startOfLocalDay } from '../tariff/local-time.js';
import { batteryOutlook, duration, peakWindowsOn } from './battery-outlook.js';
import { fitPlant, irradianceByDate, solarPowerAt } from './solar-model.js';
import { UsualLoad } from './usual-load.js';

const tz = 'Europe/Berlin';
const at = (date: string, hh: number, mm = 0) => startOfLocalDay(date, tz) + (hh * 60 + mm) * 60_000;
const tariff = energySettingsSchema.parse({ tariff: { importRate: 0.3, windows: [{ name: 'Peak', start: '15:00', end: '21:00', importRate: 0.5 }, { name: 'Cheap', start: '01:00', end: '05:00', importRate: 0.1 }] } }).tariff;

describe('battery outlook, worked by hand', () => {
  // 2026-06-03 is a Wednesday. 10 kWh battery, reserve 10 % (1 kWh).
  const date = '2026-06-03';
  const windows = peakWindowsOn(tariff, date, 2, tz);

  it('only windows dearer than the fallback rate are peak windows', () => {
    expect(windows.map((w) => [w.name, w.startsAt, w.endsAt])).toEqual([['Peak', at(date, 15), at(date, 21)]]);
  });

  it('at 17:00 with 50 % and a usual 1.5 kW load, no sun: 4 kWh last 2 h 40 min, so the reserve comes at 19:40, 1 h 20 min early', () => {
    const o = batteryOutlook({ now: at(date, 17), timeZone: tz, soc: 50, reserveSoc: 10, capacityKwh: 10, solarKw: () => 0, loadKw: () => 1.5, windows });
    expect(o.reserveAt).toBe(at(date, 19, 40));
    expect(o.windows[0]).toMatchObject({ covers: false, reserveAt: at(date, 19, 40), shortMinutes: 80, message: 'reaches the reserve at 19:40, 1 h 20 min before the window ends' });
    expect(o.fullAt).toBeNull();
  });

  it('with a usual 0.8 kW load the same 4 kWh last 5 h, past 21:00: "covers 15:00–21:00"', () => {
    const o = batteryOutlook({ now: at(date, 17), timeZone: tz, soc: 50, reserveSoc: 10, capacityKwh: 10, solarKw: () => 0, loadKw: () => 0.8, windows });
    expect(o.windows[0]).toMatchObject({ covers: true, reserveAt: null, message: 'covers 15:00–21:00' });
    expect(o.reserveAt).toBe(at(date, 22)); // 17:00 + 4 kWh / 0.8 kW
  });

  it('in the morning: 3 kW of sun over a 1 kW load fills 6 kWh of room by 12:00, then the evening is covered', () => {
    const solar = (t: number) => (t >= at(date, 9) && t < at(date, 15) ? 3 : 0);
    const o = batteryOutlook({ now: at(date, 9), timeZone: tz, soc: 40, reserveSoc: 10, capacityKwh: 10, solarKw: solar, loadKw: () => 1, windows });
    expect(o.fullAt).toBe(at(date, 12)); // 6 kWh / 2 kW net = 3 h
    // Full from 12:00 to 15:00; then 9 kWh above the reserve at 1 kW last 9 h, to 00:00: after the window.
    expect(o.windows[0]!.covers).toBe(true);
    expect(o.reserveAt).toBe(startOfLocalDay('2026-06-04', tz));
  });

  it('a battery already at the reserve before the window does not cover it, from its start', () => {
    const o = batteryOutlook({ now: at(date, 14), timeZone: tz, soc: 10, reserveSoc: 10, capacityKwh: 10, solarKw: () => 0, loadKw: () => 1, windows });
    expect(o.windows[0]).toMatchObject({ covers: false, reserveAt: at(date, 15), shortMinutes: 360, message: 'reaches the reserve at 15:00, 6 h before the window ends' });
  });

  it('durations read as people say them', () => {
    expect([duration(80), duration(60), duration(5), duration(0)]).toEqual(['1 h 20 min', '1 h', '5 min', '0 min']);
  });
});

describe('solar forecast model, worked by hand', () => {
  it('irradiance sums per local day (each hour on the date of its middle): 24 hours of 250 W/m² are 6 kWh/m²', () => {
    const first = startOfLocalDay('2026-06-03', tz);
    const hours = Array.from({ length: 48 }, (_, i) => ({ t: first + (i + 1) * 3_600_000, wm2: i < 24 ? 250 : 100 }));
    const byDate = Object.fromEntries([...irradianceByDate(hours, tz)].map(([d, v]) => [d, Math.round(v * 1e4) / 1e4]));
    expect(byDate).toEqual({ '2026-06-03': 6, '2026-06-04': 2.4 });
    // The hour ending 13:00 at 500 W/m² with a factor of 4: 2 kW all through 12:00–13:00.
    const p = solarPowerAt([{ t: at('2026-06-03', 13), wm2: 500 }], 4);
    expect([p(at('2026-06-03', 12)), p(at('2026-06-03', 12, 59)), p(at('2026-06-03', 13))]).toEqual([2, 2, 0]);
  });

  it('fits Σ production ÷ Σ irradiance: 20+16+8 kWh over 5+4+2 kWh/m² is 4.0 kWh per kWh/m²', () => {
    const days = [
      { date: '2026-06-01', kwhM2: 5, solarKwh: 20 },
      { date: '2026-06-02', kwhM2: 4, solarKwh: 16 },
      { date: '2026-06-03', kwhM2: 2, solarKwh: 8 },
      { date: '2026-06-04', kwhM2: 0.3, solarKwh: 3 }, // too dark to count
    ];
    expect(fitPlant(days, 6)).toEqual({ kwhPerKwhM2: 4, basis: 'history', days: 3 });
  });

  it('before three usable days it uses the rated size: 6 kWp × 0.8 = 4.8; with no size it says it cannot', () => {
    const rated = fitPlant([{ date: '2026-06-01', kwhM2: 5, solarKwh: 20 }], 6);
    expect(rated).toMatchObject({ basis: 'rated', days: 1 });
    expect(rated.kwhPerKwhM2).toBeCloseTo(4.8, 10);
    expect(fitPlant([], null)).toEqual({ kwhPerKwhM2: null, basis: 'none', days: 0 });
  });
});

describe('usual load', () => {
  it('is the mean per weekday and hour, falling back to the same hour on other days', () => {
    const u = new UsualLoad(tz);
    // Wednesday 18:00–19:00: 1000 W and 2000 W; Thursday 07:00: 400 W.
    u.add({ t: at('2026-06-03', 18, 10), home: 1000, solar: 0, grid: 0, battery: 0 });
    u.add({ t: at('2026-06-03', 18, 40), home: 2000, solar: 0, grid: 0, battery: 0 });
    u.add({ t: at('2026-06-04', 7, 0), home: 400, solar: 0, grid: 0, battery: 0 });
    expect(u.kwAt(at('2026-06-10', 18, 30))).toBe(1.5); // next Wednesday, same hour
    expect(u.kwAt(at('2026-06-05', 18, 30))).toBe(1.5); // a Friday: the 18:00 hour of any day
    expect(u.kwAt(at('2026-06-05', 3, 0))).toBeCloseTo(3400 / 3 / 1000, 10); // no such hour: the mean of all
    expect(new UsualLoad(tz).kwAt(at('2026-06-05', 3, 0))).toBeNull();
  });
});
