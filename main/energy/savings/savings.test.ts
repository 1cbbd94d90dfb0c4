import { describe, expect, it } from 'vitest';
import { energySettingsSchema } from '../settings/energy-settings.js';
import type { PowerSample } from '../tariff/ledger.js';
import { localMinute, startOfLocalDay } from '../tariff/local-time.js';
import { SavingsLedger, type SavingsConfig, type SavingsDay } from './ledger.js';
import { savingsCsv, savingsReport } from './report.js';

/*
 * A fixed household, worked by hand. Tariff (EUR): import 0.30/kWh, feed-in 0.10/kWh, supply 1.00 a
 * day, one peak window 17:00–21:00 every day at 0.50/kWh import. The same wall-clock day each day:
 *
 *   local time   home   solar  battery          grid
 *   00–07        400 W  0      −400 (discharge)  0
 *   07–10        500    0      0                 +500 (import)
 *   10–16        500    3000   +1500 (charge)    −1000 (export)
 *   16–17       1000    0      0                 +1000
 *   17–21       1500    0      −1500             0
 *   21–24        600    0      0                 +600
 *
 * A normal 24 h day: solar 18, home 2.8+1.5+3+1+6+1.8 = 16.1, import 1.5+1+1.8 = 4.3, export 6,
 * charge 9, discharge 2.8+6 = 8.8 kWh.
 *   paid = 4.3×0.30 − 6×0.10 + 1 = 1.29 − 0.60 + 1 = 1.69
 *   without battery: 00–07 import 2.8×0.30 = 0.84; 07–10 0.45; 10–16 export 2.5 kW×6 h = 15 kWh
 *     ×0.10 = 1.50 credit; 16–17 0.30; 17–21 6 kWh at the peak 0.50 = 3.00; 21–24 0.54
 *     → 0.84+0.45+0.30+3.00+0.54 − 1.50 + 1 = 4.63 (import 13.1 kWh, export 15 kWh)
 *   without solar or battery: every kWh of home imported: 0.84+0.45+3×0.30+0.30+3.00+0.54 + 1 = 7.03
 *   self-sufficiency 1 − 4.3/16.1 = 73.2919 %; self-consumption 1 − 6/18 = 66.6667 %.
 *
 * 2026-03-29 in Berlin is the DST day (02:00 → 03:00, 23 h): the 00–07 span lasts 6 h, so home and
 * discharge are 400 W × 6 h = 2.4 kWh: home 15.7, discharge 8.4; paid unchanged 1.69;
 * without battery 0.72+0.45+0.30+3.00+0.54 − 1.50 + 1 = 4.51; without solar 6.91;
 * self-sufficiency 1 − 4.3/15.7 = 72.6115 %.
 *
 * On 2026-03-30 the owner lowers the peak rate to 0.40 at 18:00 (mid-window): 17–18 is priced at
 * 0.50 (1.5 kWh → 0.75), 18–21 at 0.40 (4.5 kWh → 1.80), 2.55 for the window instead of 3.00:
 *   without battery 0.84+0.45+0.30+2.55+0.54 − 1.50 + 1 = 4.18; without solar 0.84+0.45+0.90+0.30+2.55+0.54 + 1 = 6.58.
 * The days before keep the prices they closed with.
 */
const tz = 'Europe/Berlin';
const tariffWith = (peak: number) =>
  energySettingsSchema.parse({ tariff: { importRate: 0.3, feedInRate: 0.1, dailySupplyCharge: 1, windows: [{ name: 'Peak', start: '17:00', end: '21:00', importRate: peak }] } }).tariff;

// Through the zone source the code uses (the system tz database), not ICU's copy of it (issue 39).
const hourOf = (t: number) => Math.floor(localMinute(t, tz).minute / 60);

function sampleAt(t: number): PowerSample {
  const h = hourOf(t);
  const row = h < 7 ? [400, 0, -400, 0] : h < 10 ? [500, 0, 0, 500] : h < 16 ? [500, 3000, 1500, -1000] : h < 17 ? [1000, 0, 0, 1000] : h < 21 ? [1500, 0, -1500, 0] : [600, 0, 0, 600];
  return { t, home: row[0]!, solar: row[1]!, battery: row[2]!, grid: row[3]! };
}

/** Feeds 15-minute polls from the start of `from` to the start of `until` (plus one poll to close the last day). */
function run(from: string, until: string, config: () => SavingsConfig, beforeFeed: (t: number) => void = () => {}) {
  const closed: SavingsDay[] = [];
  const ledger = new SavingsLedger(config, (d) => closed.push(d));
  const end = startOfLocalDay(until, tz);
  for (let t = startOfLocalDay(from, tz); t <= end + 15 * 60_000; t += 15 * 60_000) {
    beforeFeed(t);
    ledger.feed(sampleAt(t));
  }
  return { closed, ledger };
}

const r4 = (v: number | null) => (v === null ? null : Math.round(v * 10_000) / 10_000);

describe('savings model, worked by hand', () => {
  // Saved just after the 18:00 poll (18:00 in Berlin is 16:00 UTC after the DST change). A poll's
  // interval is priced when the next poll closes it, so the change is in force before the 18:15 poll.
  const changeAt = Date.parse('2026-03-30T16:00:00Z');
  let cfg: SavingsConfig = { tariff: tariffWith(0.5), timeZone: tz, currency: 'EUR' };
  const { closed } = run('2026-03-28', '2026-03-31', () => cfg, (t) => {
    if (t === changeAt + 15 * 60_000) cfg = { ...cfg, tariff: tariffWith(0.4) };
  });
  const byDate = Object.fromEntries(closed.map((d) => [d.date, d]));

  it('a normal day: paid 1.69, 4.63 without the battery, 7.03 without solar or battery', () => {
    const d = byDate['2026-03-28']!;
    expect(r4(d.solarKwh)).toBe(18);
    expect(r4(d.homeKwh)).toBe(16.1);
    expect(r4(d.importKwh)).toBe(4.3);
    expect(r4(d.exportKwh)).toBe(6);
    expect(r4(d.batteryChargeKwh)).toBe(9);
    expect(r4(d.batteryDischargeKwh)).toBe(8.8);
    expect(r4(d.importKwhWithoutBattery)).toBe(13.1);
    expect(r4(d.exportKwhWithoutBattery)).toBe(15);
    expect([r4(d.paid), r4(d.paidWithoutBattery), r4(d.paidWithoutSolar)]).toEqual([1.69, 4.63, 7.03]);
    expect(d.currency).toBe('EUR');
    expect(d.coveredMs).toBe(24 * 3_600_000);
  });

  it('the DST day has 23 hours: 2.4 kWh of night instead of 2.8, paid 1.69, 4.51 and 6.91', () => {
    const d = byDate['2026-03-29']!;
    expect(d.coveredMs).toBe(23 * 3_600_000);
    expect(r4(d.homeKwh)).toBe(15.7);
    expect(r4(d.batteryDischargeKwh)).toBe(8.4);
    expect([r4(d.paid), r4(d.paidWithoutBattery), r4(d.paidWithoutSolar)]).toEqual([1.69, 4.51, 6.91]);
    const { total } = savingsReport([{ ...d, complete: true }], 'day');
    expect(total.selfSufficiencyPct).toBe(72.6115);
    expect(total.savedByBattery).toBe(2.82);
  });

  it('a tariff changed at 18:00 prices the rest of the peak at the new rate; earlier days keep theirs', () => {
    const d = byDate['2026-03-30']!;
    expect([r4(d.paid), r4(d.paidWithoutBattery), r4(d.paidWithoutSolar)]).toEqual([1.69, 4.18, 6.58]);
    expect(r4(byDate['2026-03-28']!.paidWithoutBattery)).toBe(4.63);
  });

  it('a month sums its days: saved 8.25 by the battery and 15.45 by solar and battery', () => {
    const days = closed.map((d) => ({ ...d, complete: true }));
    const { periods, total } = savingsReport(days, 'month');
    expect(periods.map((p) => p.period)).toEqual(['2026-03']);
    const m = periods[0]!;
    expect(m).toMatchObject({ days: 3, completeDays: 3, pricedDays: 3, currency: 'EUR' });
    // 1.69×3; 4.63+4.51+4.18; 7.03+6.91+6.58
    expect([m.paid, m.paidWithoutBattery, m.paidWithoutSolar]).toEqual([5.07, 13.32, 20.52]);
    expect([m.savedByBattery, m.savedBySolarAndBattery]).toEqual([8.25, 15.45]);
    // home 16.1+15.7+16.1 = 47.9, import 12.9: 1 − 12.9/47.9; solar 54, export 18.
    expect(m.homeKwh).toBe(47.9);
    expect(m.importKwhWithoutSolar).toBe(47.9);
    expect(m.selfSufficiencyPct).toBe(73.0689);
    expect(m.selfConsumptionPct).toBe(66.6667);
    expect(total.paid).toBe(5.07);
    const daily = savingsReport(days, 'day').periods;
    expect(daily.map((p) => p.selfSufficiencyPct)).toEqual([73.2919, 72.6115, 73.2919]);
  });

  it('days are grouped by year, and money is left out (not summed as zero) where no tariff was set or currencies differ', () => {
    const base = { ...byDate['2026-03-28']!, complete: true };
    const unpriced = { ...base, date: '2025-12-31', paid: null, paidWithoutBattery: null, paidWithoutSolar: null, currency: null };
    const { periods } = savingsReport([unpriced, base], 'year');
    expect(periods.map((p) => [p.period, p.paid, p.pricedDays])).toEqual([
      ['2025', null, 0],
      ['2026', 1.69, 1],
    ]);
    const mixed = savingsReport([base, { ...base, date: '2026-03-29', currency: 'AUD' }], 'month');
    expect(mixed.total.paid).toBeNull();
    expect(mixed.total.currency).toBeNull();
    expect(mixed.total.homeKwh).toBe(32.2);
  });

  it('without a tariff the energy figures still come, money is null', () => {
    const none: SavingsConfig = { tariff: energySettingsSchema.parse({}).tariff, timeZone: tz, currency: 'EUR' };
    const { closed: free } = run('2026-03-28', '2026-03-29', () => none);
    expect(free[0]).toMatchObject({ date: '2026-03-28', paid: null, paidWithoutSolar: null, currency: null });
    expect(r4(free[0]!.homeKwh)).toBe(16.1);
  });

  it('CSV has one line per period with the JSON fields, blank where null', () => {
    const csv = savingsCsv(savingsReport(closed.map((d) => ({ ...d, complete: true })), 'day').periods);
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe(
      'period,days,completeDays,pricedDays,solarKwh,homeKwh,importKwh,exportKwh,batteryChargeKwh,batteryDischargeKwh,importKwhWithoutBattery,exportKwhWithoutBattery,importKwhWithoutSolar,paid,paidWithoutBattery,paidWithoutSolar,savedByBattery,savedBySolarAndBattery,currency,selfSufficiencyPct,selfConsumptionPct',
    );
    expect(lines[2]).toBe('2026-03-29,1,1,1,18,15.7,4.3,6,9,8.4,12.7,15,15.7,1.69,4.51,6.91,2.82,5.22,EUR,72.6115,66.6667');
  });
});

describe('day length', () => {
  it('is 24 h on a normal day, 23 h and 25 h on the DST days (Berlin 2026-03-29 and 2026-10-25), 23.5 h at Lord Howe', async () => {
    const { dayLengthMs } = await import('./day-length.js');
    const h = (ms: number) => ms / 3_600_000;
    expect([h(dayLengthMs('2026-03-28', tz)), h(dayLengthMs('2026-03-29', tz)), h(dayLengthMs('2026-10-25', tz)), h(dayLengthMs('2026-10-26', tz))]).toEqual([24, 23, 25, 24]);
    // Lord Howe Island moves its clocks by half an hour (first Sunday of October 2026 is the 4th).
    expect(h(dayLengthMs('2026-10-04', 'Australia/Lord_Howe'))).toBe(23.5);
  });
});
