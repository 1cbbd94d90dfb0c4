import { describe, expect, it } from 'vitest';
import { tariffSettings } from './settings.js';
import { dayCost, DayLedger, emptyDay, MAX_GAP_MS, round4, zeroDrawStatus, type DayTotals } from './ledger.js';
import { localMinute, startOfLocalDay } from './local-time.js';
import type { TariffConfig } from './windows.js';

// spec/energy-bridge.md (tariff): energy and money per local day; money and computed kWh rounded to
// four decimals; a gap between polls is not integrated (15 minutes, shared/reference/open-values.md).
const tariff = (t: Record<string, unknown>): TariffConfig => tariffSettings.parse(t);
const UTC = 'UTC';
const D = startOfLocalDay('2026-06-03', UTC); // a Wednesday
const at = (hh: number, mm = 0, ss = 0) => D + hh * 3_600_000 + mm * 60_000 + ss * 1000;
const rounded = (d: DayTotals) => Object.fromEntries(Object.entries(d).map(([k, v]) => [k, typeof v === 'number' ? round4(v) : v]));

describe('day ledger: what one local day integrates', () => {
  it('each poll holds until the next; solar, home, charge, discharge, import and export each add up', () => {
    const t = tariff({ importRate: 0.3, feedInRate: 0.08 });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    l.feed({ t: at(10), solar: 3000, home: 1000, grid: 500, battery: 2500 }); // held 10:00-10:10
    l.feed({ t: at(10, 10), solar: 1200, home: 2400, grid: -600, battery: -1800 }); // held 10:10-10:16
    l.feed({ t: at(10, 16), solar: null, home: null, grid: null, battery: null });
    expect(rounded(l.current()!)).toEqual({
      date: '2026-06-03',
      solarKwh: round4(3 / 6 + 1.2 / 10),
      homeKwh: round4(1 / 6 + 2.4 / 10),
      importKwh: round4(0.5 / 6),
      exportKwh: round4(0.6 / 10),
      batteryChargeKwh: round4(2.5 / 6),
      batteryDischargeKwh: round4(1.8 / 10),
      importCost: round4((0.5 / 6) * 0.3),
      feedIn: round4((0.6 / 10) * 0.08),
      superExportKwh: 0,
      superExportCredit: 0,
      zeroDrawImportKwh: 0,
      zeroDrawCoveredMs: 0,
      coveredMs: 16 * 60_000,
      fallbackKwh: 0,
    });
    expect(l.lastSample()).toEqual({ t: at(10, 16), solar: null, home: null, grid: null, battery: null });
  });

  it('unknown powers add nothing, but the time still counts as covered', () => {
    const t = tariff({ importRate: 1 });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    l.feed({ t: at(8), solar: null, home: null, grid: null, battery: null });
    l.feed({ t: at(8, 10), solar: 0, home: 0, grid: 0, battery: 0 });
    expect(rounded(l.current()!)).toEqual({ ...emptyDay('2026-06-03'), coveredMs: 10 * 60_000 });
  });

  it('a zero battery or grid reading is neither charge nor discharge, neither import nor export', () => {
    const t = tariff({ importRate: 1, feedInRate: 1 });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    l.feed({ t: at(9), solar: 0, home: 0, grid: 0, battery: 0 });
    l.feed({ t: at(9, 10), solar: 0, home: 0, grid: 0, battery: 0 });
    const d = l.current()!;
    expect([d.batteryChargeKwh, d.batteryDischargeKwh, d.importKwh, d.exportKwh, d.importCost, d.feedIn]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('polls a few seconds apart inside one minute integrate exactly', () => {
    const t = tariff({ importRate: 1 });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    for (let s = 0; s <= 3600; s += 5) l.feed({ t: at(12, 0, s), solar: 0, home: 0, grid: 3600, battery: 0 });
    expect(round4(l.current()!.importKwh)).toBe(3.6);
    expect(l.current()!.coveredMs).toBe(3_600_000);
  });

  it('a poll not newer than the last is ignored', () => {
    const t = tariff({ importRate: 1 });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    l.feed({ t: at(9), solar: 0, home: 0, grid: 6000, battery: 0 });
    l.feed({ t: at(9, 10), solar: 0, home: 0, grid: 6000, battery: 0 });
    l.feed({ t: at(9, 10), solar: 0, home: 0, grid: 60_000, battery: 0 });
    l.feed({ t: at(9, 5), solar: 0, home: 0, grid: 60_000, battery: 0 });
    expect(round4(l.current()!.importKwh)).toBe(1);
    expect(l.lastSample()!.t).toBe(at(9, 10));
  });

  it('the gap limit is 15 minutes: exactly 15 integrates, a millisecond more does not', () => {
    expect(MAX_GAP_MS).toBe(15 * 60_000);
    const t = tariff({ importRate: 1 });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    l.feed({ t: at(9), solar: 0, home: 0, grid: 4000, battery: 0 });
    l.feed({ t: at(9, 15, 0) + 1, solar: 0, home: 0, grid: 4000, battery: 0 });
    expect(l.current()!.coveredMs).toBe(0);
    l.feed({ t: at(9, 30, 0) + 1, solar: 0, home: 0, grid: 4000, battery: 0 });
    expect(round4(l.current()!.importKwh)).toBe(1);
  });

  it('before the first poll there is no day; the first poll opens it with nothing integrated', () => {
    const t = tariff({});
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    expect(l.current()).toBeNull();
    expect(l.lastSample()).toBeNull();
    l.feed({ t: at(7), solar: 5000, home: 0, grid: 0, battery: 0 });
    expect(l.current()).toEqual(emptyDay('2026-06-03'));
  });

  it('the interval across local midnight is split between the two days, and the first day closes', () => {
    const t = tariff({ importRate: 1 });
    const closed: DayTotals[] = [];
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }), (d) => closed.push({ ...d }));
    l.feed({ t: at(23, 55), solar: 0, home: 0, grid: 6000, battery: 0 });
    l.feed({ t: at(24, 5), solar: 0, home: 0, grid: 6000, battery: 0 });
    expect(closed.map((d) => [d.date, round4(d.importKwh)])).toEqual([['2026-06-03', 0.5]]);
    expect([l.current()!.date, round4(l.current()!.importKwh)]).toEqual(['2026-06-04', 0.5]);
    // Asking for a later instant closes today too; asking for an earlier one changes nothing.
    l.advanceTo(at(24, 1));
    expect(closed).toHaveLength(1);
    expect(l.advanceTo(at(48, 1)).date).toBe('2026-06-05');
    expect(closed.map((d) => d.date)).toEqual(['2026-06-03', '2026-06-04']);
    expect(l.current()).toEqual(emptyDay('2026-06-05'));
  });

  it('time-of-use feed-in: the window rate inside, the fallback outside; a window without one uses the fallback', () => {
    const t = tariff({
      importRate: 0.2,
      feedInRate: 0.05,
      windows: [
        { name: 'Solar sponge', start: '10:00', end: '11:00', importRate: 0.1, feedInRate: 0.12 },
        { name: 'Evening', start: '18:00', end: '19:00', importRate: 0.5 },
      ],
    });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    for (let m = 9 * 60 + 30; m <= 11 * 60 + 30; m += 1) l.feed({ t: at(0, m), solar: 0, home: 0, grid: -6000, battery: 0 });
    expect(round4(l.current()!.feedIn)).toBe(round4(3 * 0.05 + 6 * 0.12 + 3 * 0.05));
    for (let m = 17 * 60 + 45; m <= 19 * 60; m += 1) l.feed({ t: at(0, m), solar: 0, home: 0, grid: -6000, battery: 0 });
    expect(round4(l.current()!.feedIn)).toBe(round4(3 * 0.05 + 6 * 0.12 + 3 * 0.05 + 1.5 * 0.05 + 6 * 0.05));
  });

  it('the tariff in force is read at every poll: a changed rate applies from then on', () => {
    let t = tariff({ importRate: 0.2 });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    l.feed({ t: at(9), solar: 0, home: 0, grid: 6000, battery: 0 });
    l.feed({ t: at(9, 0, 30), solar: 0, home: 0, grid: 6000, battery: 0 });
    t = tariff({ importRate: 1 });
    l.feed({ t: at(9, 0, 40), solar: 0, home: 0, grid: 6000, battery: 0 });
    l.feed({ t: at(9, 1), solar: 0, home: 0, grid: 6000, battery: 0 });
    expect(round4(l.current()!.importCost)).toBe(round4(0.05 * 0.2 + 0.05 * 1));
  });

  it('super export: the cap is shared over the day; export before the window earns feed-in only', () => {
    const t = tariff({ feedInRate: 0.04, superExport: { enabled: true, rate: 0.3, start: '17:00', end: '19:00', capKwh: 2 } });
    const l = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    for (let m = 16 * 60; m <= 20 * 60; m += 1) l.feed({ t: at(0, m), solar: 0, home: 0, grid: -1500, battery: 0 });
    const d = l.current()!;
    expect(round4(d.exportKwh)).toBe(6);
    expect(round4(d.superExportKwh)).toBe(2);
    expect(round4(d.superExportCredit)).toBe(0.6);
    expect(round4(d.feedIn)).toBe(round4(4 * 0.04));
    // Import inside the window does not touch the cap.
    const imp = new DayLedger(() => ({ tariff: t, timeZone: UTC }));
    for (let m = 17 * 60; m <= 18 * 60; m += 1) imp.feed({ t: at(0, m), solar: 0, home: 0, grid: 1500, battery: 0 });
    expect(imp.current()!.superExportKwh).toBe(0);
  });
});

describe('zero-draw credit states', () => {
  const z = tariff({ importRate: 0.3, dailySupplyCharge: 0.9, zeroDraw: { enabled: true, credit: 1.5, start: '16:00', end: '21:00', toleranceKwh: 0.05 } });
  const windowMs = 5 * 3_600_000;
  const dayWith = (importKwh: number, coveredMs: number): DayTotals => ({ ...emptyDay('2026-06-03'), zeroDrawImportKwh: importKwh, zeroDrawCoveredMs: coveredMs });
  const now = (hh: number, mm = 0) => localMinute(at(hh, mm), UTC);

  it('off when not enabled, whatever the day', () => {
    const off = tariff({ importRate: 0.3 });
    expect(zeroDrawStatus(off, dayWith(9, 0), now(22))).toBe('off');
    expect(dayCost(off, dayWith(0, windowMs), null)).toMatchObject({ zeroDrawStatus: 'off', zeroDrawMet: false, zeroDrawCredit: 0 });
  });

  it('not started before the window, so far from its first minute to its last', () => {
    expect(zeroDrawStatus(z, dayWith(0, 0), now(15, 59))).toBe('notStarted');
    expect(zeroDrawStatus(z, dayWith(0, 0), now(16, 0))).toBe('soFar');
    expect(zeroDrawStatus(z, dayWith(0, 0), now(20, 59))).toBe('soFar');
  });

  it('met from the window end with import up to the tolerance and 90 % coverage', () => {
    expect(zeroDrawStatus(z, dayWith(0.05, windowMs), now(21, 0))).toBe('met');
    expect(zeroDrawStatus(z, dayWith(0.05, 0.9 * windowMs), now(21, 0))).toBe('met');
    expect(zeroDrawStatus(z, dayWith(0.05, 0.9 * windowMs - 1), now(21, 0))).toBe('noData');
  });

  it('missed as soon as import passes the tolerance, even inside the window', () => {
    expect(zeroDrawStatus(z, dayWith(0.0501, windowMs), now(21, 0))).toBe('missed');
    expect(zeroDrawStatus(z, dayWith(0.0501, 0), now(17, 0))).toBe('missed');
  });

  it('a closed day (no current minute) or a current minute on a later date is over', () => {
    expect(zeroDrawStatus(z, dayWith(0, windowMs), null)).toBe('met');
    expect(zeroDrawStatus(z, dayWith(0, windowMs), localMinute(at(24 + 1), UTC))).toBe('met');
    expect(zeroDrawStatus(z, dayWith(0, 0), null)).toBe('noData');
  });

  it('the day cost: credits minus costs, the credit only once met', () => {
    const day: DayTotals = { ...dayWith(0, windowMs), importCost: 2.4, feedIn: 0.7, superExportCredit: 0.25 };
    expect(dayCost(z, day, null)).toEqual({
      importCost: 2.4, feedIn: 0.7, superExportCredit: 0.25, zeroDrawCredit: 1.5, zeroDrawMet: true, zeroDrawStatus: 'met', supply: 0.9,
      net: 0.7 + 0.25 + 1.5 - 2.4 - 0.9,
    });
    expect(dayCost(z, day, now(18))).toEqual({
      importCost: 2.4, feedIn: 0.7, superExportCredit: 0.25, zeroDrawCredit: 0, zeroDrawMet: false, zeroDrawStatus: 'soFar', supply: 0.9,
      net: 0.7 + 0.25 - 2.4 - 0.9,
    });
  });

  it('import counts toward zero draw only inside the window, and only the window time counts as its coverage', () => {
    const l = new DayLedger(() => ({ tariff: z, timeZone: UTC }));
    for (let m = 15 * 60; m <= 22 * 60; m += 1) l.feed({ t: at(0, m), solar: 0, home: 0, grid: 600, battery: 0 });
    const d = l.current()!;
    expect(round4(d.importKwh)).toBe(4.2);
    expect(round4(d.zeroDrawImportKwh)).toBe(3);
    expect(d.zeroDrawCoveredMs).toBe(windowMs);
    // Polls with an unknown grid do not cover the window.
    const u = new DayLedger(() => ({ tariff: z, timeZone: UTC }));
    for (let m = 16 * 60; m <= 21 * 60; m += 1) u.feed({ t: at(0, m), solar: 0, home: 0, grid: null, battery: 0 });
    expect(u.current()!.zeroDrawCoveredMs).toBe(0);
  });
});

describe('rounding at the edge', () => {
  it('four decimals, half away from zero as Math.round does', () => {
    expect(round4(1.23456)).toBe(1.2346);
    expect(round4(1.23454)).toBe(1.2345);
    expect(round4(-0.00004)).toBe(-0);
    expect(round4(2)).toBe(2);
  });
});
