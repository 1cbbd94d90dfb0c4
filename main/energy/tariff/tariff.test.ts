import { describe, expect, it } from 'vitest';
import { tariffSettings } from './settings.js';
import { dayCost, DayLedger, round4, type DayTotals, type PowerSample } from './ledger.js';
import { localMinute, startOfLocalDay } from './local-time.js';
import type { TariffConfig } from './windows.js';

const tariff = (t: Record<string, unknown>): TariffConfig => tariffSettings.parse(t);

/** Feeds one poll a minute over [from, to] with the given powers; returns the days that closed. */
function run(t: TariffConfig, tz: string, from: number, to: number, power: (t: number) => Partial<PowerSample>, ledger?: DayLedger) {
  const closed: DayTotals[] = [];
  const l = ledger ?? new DayLedger(() => ({ tariff: t, timeZone: tz }), (d) => closed.push({ ...d }));
  for (let at = from; at <= to; at += 60_000) l.feed({ t: at, solar: 0, home: 0, grid: 0, battery: 0, ...power(at) });
  return { ledger: l, closed };
}

const day = (date: string, tz: string) => [startOfLocalDay(date, tz), startOfLocalDay(nextDay(date), tz)] as const;
const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('tariff: time-of-use windows', () => {
  const tz = 'Europe/Berlin';
  const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri'];
  const t = tariff({
    importRate: 0.2,
    windows: [
      { name: 'Peak', start: '07:00', end: '10:00', importRate: 0.4 },
      { name: 'Shoulder', start: '17:00', end: '21:00', importRate: 0.3 },
      { name: 'Night', start: '22:00', end: '06:00', importRate: 0.1, days: weekdays },
    ],
  });

  it('a weekday importing 1 kW all day costs 3 h peak + 4 h shoulder + 8 h night + 9 h fallback', () => {
    // Wednesday 2026-03-11: the night window of Tuesday covers 00:00-06:00, Wednesday's 22:00-24:00.
    const [from, to] = day('2026-03-11', tz);
    const { closed } = run(t, tz, from - 60_000, to + 60_000, () => ({ grid: 1000 }));
    const wed = closed.find((d) => d.date === '2026-03-11')!;
    expect(round4(wed.importKwh)).toBe(24);
    expect(round4(wed.importCost)).toBe(round4(3 * 0.4 + 4 * 0.3 + 8 * 0.1 + 9 * 0.2));
  });

  it("a window wrapping midnight belongs to the day it starts: Friday night covers Saturday 00-06, Saturday's does not exist", () => {
    const [sat] = day('2026-03-14', tz); // Saturday
    const [sun] = day('2026-03-15', tz);
    const { closed } = run(t, tz, sat - 60_000, sun + 86_400_000 + 60_000, () => ({ grid: 1000 }));
    const saturday = closed.find((d) => d.date === '2026-03-14')!;
    const sunday = closed.find((d) => d.date === '2026-03-15')!;
    // Saturday: 6 h night (Friday's window) + 3 peak + 4 shoulder + 11 fallback (no night window starts on Saturday).
    expect(round4(saturday.importCost)).toBe(round4(6 * 0.1 + 3 * 0.4 + 4 * 0.3 + 11 * 0.2));
    // Sunday: no night at all, 3 peak + 4 shoulder + 17 fallback.
    expect(round4(sunday.importCost)).toBe(round4(3 * 0.4 + 4 * 0.3 + 17 * 0.2));
  });

  it('a window with its end equal to its start covers its whole days', () => {
    const w = tariff({ importRate: 0.2, windows: [{ name: 'Weekend', start: '00:00', end: '00:00', importRate: 0.05, days: ['sat', 'sun'] }] });
    const [sat, sun] = day('2026-03-14', tz);
    const { ledger } = run(w, tz, sat, sun - 60_000, () => ({ grid: 2000 }));
    expect(round4(ledger.current()!.importCost)).toBe(round4((24 * 60 - 1) / 60 * 2 * 0.05));
  });
});

describe('tariff: DST-change days in the configured zone', () => {
  const tz = 'Australia/Sydney';
  const t = tariff({ importRate: 0, windows: [{ name: 'Early', start: '01:00', end: '04:00', importRate: 1 }] });

  it('the day clocks go back has 25 hours and 01:00-04:00 holds 4 real hours', () => {
    const [from, to] = day('2026-04-05', tz);
    expect(to - from).toBe(25 * 3_600_000);
    const { closed } = run(t, tz, from, to, () => ({ grid: 1000 }));
    const d = closed.find((x) => x.date === '2026-04-05')!;
    expect(round4(d.importKwh)).toBe(25);
    expect(round4(d.importCost)).toBe(4);
  });

  it('the day clocks go forward has 23 hours and 01:00-04:00 holds 2 real hours', () => {
    const [from, to] = day('2026-10-04', tz);
    expect(to - from).toBe(23 * 3_600_000);
    const { closed } = run(t, tz, from, to, () => ({ grid: 1000 }));
    const d = closed.find((x) => x.date === '2026-10-04')!;
    expect(round4(d.importKwh)).toBe(23);
    expect(round4(d.importCost)).toBe(2);
  });
});

describe('tariff: super-export cap, supply and gaps', () => {
  const tz = 'UTC';
  const [from] = day('2026-06-01', tz);
  const h = (x: number) => from + x * 3_600_000;

  it('export inside the super-export window earns the super rate up to the cap, the rest the feed-in rate', () => {
    const t = tariff({ feedInRate: 0.05, dailySupplyCharge: 1.1, superExport: { enabled: true, rate: 0.5, start: '18:00', end: '20:00', capKwh: 5 } });
    // 3 kW export from 18:00 to 20:00 = 6 kWh: 5 at 0.50, 1 at 0.05.
    const { ledger } = run(t, tz, h(17), h(21), (at) => ({ grid: at >= h(18) && at < h(20) ? -3000 : 0 }));
    const d = ledger.current()!;
    expect(round4(d.exportKwh)).toBe(6);
    expect(round4(d.superExportKwh)).toBe(5);
    const c = dayCost(t, d, localMinute(h(21), tz));
    expect(round4(c.superExportCredit)).toBe(2.5);
    expect(round4(c.feedIn)).toBe(0.05);
    expect(round4(c.supply)).toBe(1.1);
    expect(round4(c.net)).toBe(round4(2.5 + 0.05 - 1.1));
  });

  it('time between polls more than 15 minutes apart is not integrated; 15 minutes is', () => {
    const t = tariff({ importRate: 1 });
    const l = new DayLedger(() => ({ tariff: t, timeZone: tz }));
    const at = (m: number, grid: number) => l.feed({ t: h(10) + m * 60_000, solar: null, home: null, grid, battery: null });
    at(0, 6000);
    at(16, 6000); // 16-minute gap: nothing
    expect(l.current()!.importKwh).toBe(0);
    at(31, 6000); // 15 minutes: 6 kW for 0.25 h
    expect(round4(l.current()!.importKwh)).toBe(1.5);
  });
});

describe('tariff: zero-draw credit', () => {
  const tz = 'UTC';
  const [from] = day('2026-06-02', tz);
  const h = (x: number) => from + x * 3_600_000;
  const t = tariff({ importRate: 0.3, zeroDraw: { enabled: true, credit: 1.5, start: '16:00', end: '21:00', toleranceKwh: 0.05 } });

  it('"so far" inside the window claims nothing; after the window it is met and credited', () => {
    const { ledger } = run(t, tz, h(12), h(18), () => ({ grid: 0 }));
    const soFar = dayCost(t, ledger.current()!, localMinute(h(18), tz));
    expect(soFar.zeroDrawStatus).toBe('soFar');
    expect(soFar.zeroDrawMet).toBe(false);
    expect(soFar.zeroDrawCredit).toBe(0);
    run(t, tz, h(18) + 60_000, h(21) + 60_000, () => ({ grid: 0 }), ledger);
    const met = dayCost(t, ledger.current()!, localMinute(h(21) + 60_000, tz));
    expect(met.zeroDrawStatus).toBe('met');
    expect(met.zeroDrawMet).toBe(true);
    expect(met.zeroDrawCredit).toBe(1.5);
  });

  it('import past the tolerance inside the window misses the credit at once', () => {
    // 120 W for an hour = 0.12 kWh > 0.05
    const { ledger } = run(t, tz, h(15), h(19), (at) => ({ grid: at >= h(17) && at < h(18) ? 120 : 0 }));
    const c = dayCost(t, ledger.current()!, localMinute(h(19), tz));
    expect(c.zeroDrawStatus).toBe('missed');
    expect(c.zeroDrawCredit).toBe(0);
  });

  it('before the window it has not started; import outside the window does not count', () => {
    const { ledger } = run(t, tz, h(8), h(15), () => ({ grid: 2000 }));
    expect(dayCost(t, ledger.current()!, localMinute(h(15), tz)).zeroDrawStatus).toBe('notStarted');
    run(t, tz, h(15) + 60_000, h(22), (at) => ({ grid: at >= h(16) && at < h(21) ? 0 : 2000 }), ledger);
    expect(dayCost(t, ledger.current()!, localMinute(h(22), tz)).zeroDrawStatus).toBe('met');
  });

  it('a window the polls did not cover earns nothing', () => {
    const { ledger } = run(t, tz, h(12), h(16), () => ({ grid: 0 }));
    ledger.feed({ t: h(22), solar: 0, home: 0, grid: 0, battery: 0 }); // gateway was away 16:00-22:00
    expect(dayCost(t, ledger.current()!, localMinute(h(22), tz)).zeroDrawStatus).toBe('noData');
  });
});

describe('tariff settings: bad input names the field', () => {
  const issue = (t: unknown) => {
    const r = tariffSettings.safeParse(t);
    return r.success ? null : { path: r.error.issues[0]!.path.join('.'), message: r.error.issues[0]!.message };
  };
  it('overlapping windows on a shared day', () => {
    expect(issue({ windows: [{ start: '07:00', end: '10:00' }, { start: '09:00', end: '11:00' }] })?.path).toBe('windows.1.start');
    // A wrapping window overlaps the next morning's window only if that day is in its set.
    expect(issue({ windows: [{ start: '22:00', end: '06:00', days: ['fri'] }, { start: '05:00', end: '07:00', days: ['sun'] }] })).toBeNull();
    expect(issue({ windows: [{ start: '22:00', end: '06:00', days: ['fri'] }, { start: '05:00', end: '07:00', days: ['sat'] }] })?.path).toBe('windows.1.start');
  });
  it('negative rates, and credit windows whose end is not after the start', () => {
    expect(issue({ importRate: -0.1 })?.path).toBe('importRate');
    expect(issue({ windows: [{ start: '07:00', end: '10:00', feedInRate: -1 }] })?.path).toBe('windows.0.feedInRate');
    expect(issue({ superExport: { enabled: true, start: '18:00', end: '18:00' } })?.path).toBe('superExport.end');
    expect(issue({ zeroDraw: { enabled: true, start: '21:00', end: '16:00' } })?.path).toBe('zeroDraw.end');
  });
});

describe('tariff: day boundaries', () => {
  it('a poll arriving late for a day already closed does not reopen it or close today again', () => {
    const t = tariff({ importRate: 1 });
    const closed: DayTotals[] = [];
    const l = new DayLedger(() => ({ tariff: t, timeZone: 'UTC' }), (d) => closed.push({ ...d }));
    const [mon, tue] = day('2026-06-01', 'UTC');
    l.feed({ t: tue - 120_000, solar: 0, home: 0, grid: 1000, battery: 0 });
    l.advanceTo(tue + 1000); // the snapshot was asked for just after midnight
    l.feed({ t: tue - 60_000, solar: 0, home: 0, grid: 1000, battery: 0 }); // a poll stamped before midnight
    l.feed({ t: tue + 60_000, solar: 0, home: 0, grid: 1000, battery: 0 });
    expect(closed.map((d) => d.date)).toEqual(['2026-06-01']);
    expect(l.current()!.date).toBe('2026-06-02');
    expect(mon).toBeLessThan(tue);
  });
});
