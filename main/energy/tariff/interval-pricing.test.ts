import { describe, expect, it } from 'vitest';
import { bookOf, type PriceInterval } from '../prices/price-book.js';
import { dayCost, DayLedger, round4, type DayTotals } from './ledger.js';
import { startOfLocalDay } from './local-time.js';
import { tariffSettings } from './settings.js';

// Issue 43: each poll's energy is priced at the live price interval it fell in; the day adds up the
// intervals as the retailer's bill does and rounds once, at the edge. Every expected figure below is
// worked by hand in the comments (kWh per interval × price, summed), not with the ledger's formula.
const MIN = 60_000;
const HOUR = 60 * MIN;
const cents = (v: number) => Math.round(v * 100);

/** Intervals of `len` minutes over [from, to), priced by `price(start)`. */
function intervals(from: number, to: number, len: number, price: (start: number) => Partial<PriceInterval>): PriceInterval[] {
  const out: PriceInterval[] = [];
  for (let s = from; s < to; s += len * MIN) {
    out.push({ start: s, end: s + len * MIN, importPerKwh: 0.3, feedInPerKwh: 0.06, descriptor: 'neutral', kind: 'actual', estimate: false, spike: false, ...price(s) });
  }
  return out;
}

/** Feeds 1 s polls over [from, to] (the last one closes the stretch) with the grid power `grid(t)`. */
function feedSeconds(l: DayLedger, from: number, to: number, grid: (t: number) => number): void {
  for (let t = from; t <= to; t += 1000) l.feed({ t, solar: 0, home: Math.max(0, grid(t)), grid: grid(t), battery: 0 });
}

describe('a Sydney day of 1 s polls priced at Amber’s 5-minute intervals', () => {
  const tz = 'Australia/Sydney';
  const day = startOfLocalDay('2026-01-14', tz); // AEDT all day: 24 h
  const local = (hh: number, mm = 0) => day + hh * HOUR + mm * MIN;
  const t = tariffSettings.parse({ importRate: 0.4, feedInRate: 0.02, dailySupplyCharge: 1.1 });
  // 00:00-11:00 and 13:00-24:00 the house imports 1.2 kW (0.1 kWh each 5 minutes);
  // 11:00-13:00 it exports 3 kW (0.25 kWh each 5 minutes).
  const grid = (x: number) => (x >= local(11) && x < local(13) ? -3000 : 1200);
  const list = intervals(day, day + 24 * HOUR, 5, (s) => {
    if (s >= local(3) && s < local(3, 30)) return { importPerKwh: -0.05, descriptor: 'negative' }; // paid to consume
    if (s >= local(12) && s < local(12, 30)) return { feedInPerKwh: -0.04, descriptor: 'negative' }; // export costs money
    if (s === local(18)) return { importPerKwh: 12, descriptor: 'spike', spike: true };
    return {};
  }).filter((iv) => iv.start !== local(20)); // 20:00-20:05: no price known (the fixed rate applies)
  const book = bookOf('amber', list);

  it('adds up to the hand-worked bill, to the cent', () => {
    const closed: DayTotals[] = [];
    const l = new DayLedger(() => ({ tariff: t, timeZone: tz, prices: book }), (d) => closed.push(d));
    feedSeconds(l, day, day + 24 * HOUR, grid);
    const d = closed[0]!;
    expect(d.date).toBe('2026-01-14');
    // Import: 22 h × 1.2 kW = 26.4 kWh over 264 intervals; export: 2 h × 3 kW = 6 kWh over 24 intervals.
    expect(round4(d.importKwh)).toBe(26.4);
    expect(round4(d.exportKwh)).toBe(6);
    // Import cost, interval by interval:
    //   03:00-03:30, 6 × 0.1 kWh at -$0.05  = -$0.03 (paid to consume)
    //   18:00-18:05 spike, 0.1 kWh at $12    =  $1.20
    //   20:00-20:05 no price, 0.1 kWh at the fixed $0.40 = $0.04
    //   the other 256 intervals, 25.6 kWh at $0.30 = $7.68
    //   total $8.89
    expect(cents(d.importCost)).toBe(889);
    // Feed-in: 12:00-12:30, 6 × 0.25 kWh at -$0.04 = -$0.06; the other 18 × 0.25 kWh at $0.06 = $0.27; total $0.21.
    expect(cents(d.feedIn)).toBe(21);
    // The day says what was priced at the fixed rates: the 0.1 kWh of 20:00-20:05.
    expect(round4(d.fallbackKwh)).toBe(0.1);
    // Net: $0.21 - $8.89 - $1.10 supply = -$9.78.
    expect(cents(dayCost(t, d, null).net)).toBe(-978);
  });

  it('lists the bill line by line: the spike, the negative import and the negative feed-in intervals', () => {
    const l = new DayLedger(() => ({ tariff: t, timeZone: tz, prices: book }));
    feedSeconds(l, day, local(23, 59), grid);
    const lines = l.intervals();
    // 288 intervals less the unpriced 20:00 one (the 23:55 one, partly fed so far, is listed).
    expect(lines).toHaveLength(287);
    const at = (hh: number, mm: number) => lines.find((x) => x.start === local(hh, mm))!;
    expect(at(18, 0)).toMatchObject({ spike: true, importPerKwh: 12 });
    expect(cents(at(18, 0).importCost)).toBe(120); // 0.1 kWh × $12
    expect(round4(at(3, 10).importCost)).toBe(-0.005); // 0.1 kWh × -$0.05: paid half a cent
    expect(round4(at(12, 20).feedIn)).toBe(-0.01); // 0.25 kWh × -$0.04: exporting cost a cent
    expect(round4(at(11, 0).feedIn)).toBe(0.015); // 0.25 kWh × $0.06
    expect(lines.some((x) => x.start === local(20))).toBe(false);
  });

  it('a poll spanning an interval edge is split at the edge', () => {
    // One poll at 17:59:30 holding 3.6 kW to the next at 18:00:30: 30 s (0.03 kWh) at $0.30 = $0.009
    // before the spike and 30 s (0.03 kWh) at $12 = $0.36 inside it: $0.369.
    const l = new DayLedger(() => ({ tariff: t, timeZone: tz, prices: book }));
    l.feed({ t: local(17, 59) + 30_000, solar: 0, home: 3600, grid: 3600, battery: 0 });
    l.feed({ t: local(18, 0) + 30_000, solar: 0, home: 3600, grid: 3600, battery: 0 });
    expect(round4(l.current()!.importCost)).toBe(0.369);
    // An edge off the minute (a source's 20-second intervals, say) is cut the same way: 10 s at $1, 50 s at $2.
    const odd = bookOf('amber', [
      { ...list[0]!, start: local(9), end: local(9) + 10_000, importPerKwh: 1 },
      { ...list[0]!, start: local(9) + 10_000, end: local(9, 5), importPerKwh: 2 },
    ]);
    const m = new DayLedger(() => ({ tariff: t, timeZone: tz, prices: odd }));
    m.feed({ t: local(9), solar: 0, home: 3600, grid: 3600, battery: 0 });
    m.feed({ t: local(9, 1), solar: 0, home: 3600, grid: 3600, battery: 0 });
    // 3.6 kW for 10 s = 0.01 kWh × $1 = $0.01; for 50 s = 0.05 kWh × $2 = $0.10; $0.11.
    expect(round4(m.current()!.importCost)).toBe(0.11);
    // An unpriced stretch running into an interval that starts off the minute: 20 s (0.02 kWh) at the
    // fixed $0.40 = $0.008, then 40 s (0.04 kWh) at $1 = $0.04; $0.048, and 0.02 kWh priced at the fixed rate.
    const late = bookOf('amber', [{ ...list[0]!, start: local(9) + 20_000, end: local(9, 5), importPerKwh: 1 }]);
    const n = new DayLedger(() => ({ tariff: t, timeZone: tz, prices: late }));
    n.feed({ t: local(9), solar: 0, home: 3600, grid: 3600, battery: 0 });
    n.feed({ t: local(9, 1), solar: 0, home: 3600, grid: 3600, battery: 0 });
    expect(round4(n.current()!.importCost)).toBe(0.048);
    expect(round4(n.current()!.fallbackKwh)).toBe(0.02);
  });

  it('without a book the same polls are priced at the fixed rates, as before', () => {
    const closed: DayTotals[] = [];
    const l = new DayLedger(() => ({ tariff: t, timeZone: tz, prices: null }), (d) => closed.push(d));
    feedSeconds(l, day, day + 24 * HOUR, grid);
    // 26.4 kWh × $0.40 = $10.56; 6 kWh × $0.02 = $0.12; nothing counted as fallback.
    expect(cents(closed[0]!.importCost)).toBe(1056);
    expect(cents(closed[0]!.feedIn)).toBe(12);
    expect(closed[0]!.fallbackKwh).toBe(0);
  });
});

describe('DST change days', () => {
  /** A ledger fed 10 s polls (each under a minute, so every one lies in one interval) from `from` to `to`. */
  const run = (tz: string, book: ReturnType<typeof bookOf>, from: number, to: number, grid: (t: number) => number, tariff = tariffSettings.parse({ importRate: 0.99, feedInRate: 0.15 })) => {
    const closed: DayTotals[] = [];
    const l = new DayLedger(() => ({ tariff, timeZone: tz, prices: book }), (d) => closed.push(d));
    for (let x = from; x <= to; x += 10_000) l.feed({ t: x, solar: 0, home: 0, grid: grid(x), battery: 0 });
    return closed;
  };

  it('Sydney, 5 April 2026: clocks go back at 03:00 AEDT, a 25-hour day of 300 Amber intervals', () => {
    const tz = 'Australia/Sydney';
    const from = Date.parse('2026-04-04T13:00:00Z'); // 00:00 AEDT (+11)
    const to = Date.parse('2026-04-05T14:00:00Z'); // 00:00 AEST (+10) on the 6th
    expect(startOfLocalDay('2026-04-05', tz)).toBe(from);
    expect(startOfLocalDay('2026-04-06', tz)).toBe(to);
    // The second 02:00-03:00 (AEST, 16:00-17:00 UTC) is priced at $0.10, every other interval at $0.30.
    const cheap = [Date.parse('2026-04-04T16:00:00Z'), Date.parse('2026-04-04T17:00:00Z')] as const;
    const book = bookOf('amber', intervals(from - HOUR, to + HOUR, 5, (s) => (s >= cheap[0] && s < cheap[1] ? { importPerKwh: 0.1 } : {})));
    const days = run(tz, book, from, to, () => 1200);
    expect(days.map((d) => d.date)).toEqual(['2026-04-05']);
    // 25 h × 1.2 kW = 30 kWh = 300 intervals of 0.1 kWh; 12 at $0.10 = $0.12, 288 at $0.30 = $8.64; $8.76.
    expect(round4(days[0]!.importKwh)).toBe(30);
    expect(cents(days[0]!.importCost)).toBe(876);
  });

  it('Sydney, 4 October 2026: clocks go forward at 02:00 AEST, a 23-hour day', () => {
    const tz = 'Australia/Sydney';
    const from = Date.parse('2026-10-03T14:00:00Z'); // 00:00 AEST (+10)
    const to = Date.parse('2026-10-04T13:00:00Z'); // 00:00 AEDT (+11) on the 5th
    const book = bookOf('amber', intervals(from - HOUR, to + HOUR, 5, () => ({})));
    const days = run(tz, book, from, to, () => 1200);
    // 23 h × 1.2 kW = 27.6 kWh (276 intervals of 0.1 kWh) at $0.30 = $8.28.
    expect(days.map((d) => d.date)).toEqual(['2026-10-04']);
    expect(round4(days[0]!.importKwh)).toBe(27.6);
    expect(cents(days[0]!.importCost)).toBe(828);
  });

  it('London, 25 October 2026: clocks go back at 02:00 BST, 50 Octopus half hours; no export price, so the tariff’s feed-in', () => {
    const tz = 'Europe/London';
    const from = Date.parse('2026-10-24T23:00:00Z'); // 00:00 BST
    const to = Date.parse('2026-10-26T00:00:00Z'); // 00:00 GMT on the 26th
    expect(startOfLocalDay('2026-10-25', tz)).toBe(from);
    expect(startOfLocalDay('2026-10-26', tz)).toBe(to);
    // Agile: £0.20 until 01:00 UTC (00:00-02:00 BST, the first 4 half hours), then £0.15; Octopus gives no export price here.
    const cut = Date.parse('2026-10-25T01:00:00Z');
    const book = bookOf('octopus', intervals(from - HOUR, to + HOUR, 30, (s) => ({ importPerKwh: s < cut ? 0.2 : 0.15, feedInPerKwh: null })));
    // 1 kW imported all day except 12:00-14:00 GMT, when 2 kW is exported.
    const exp = [Date.parse('2026-10-25T12:00:00Z'), Date.parse('2026-10-25T14:00:00Z')] as const;
    const days = run(tz, book, from, to, (x) => (x >= exp[0] && x < exp[1] ? -2000 : 1000));
    expect(days.map((d) => d.date)).toEqual(['2026-10-25']);
    // Import: 23 h × 1 kW = 23 kWh: 4 half hours × 0.5 kWh at £0.20 = £0.40, 42 × 0.5 kWh at £0.15 = £3.15; £3.55.
    expect(round4(days[0]!.importKwh)).toBe(23);
    expect(cents(days[0]!.importCost)).toBe(355);
    // Export: 2 h × 2 kW = 4 kWh at the tariff's £0.15 = £0.60 (and it is not "fallback": the interval priced the import).
    expect(cents(days[0]!.feedIn)).toBe(60);
    expect(days[0]!.fallbackKwh).toBe(0);
  });

  it('London, 29 March 2026: clocks go forward at 01:00 GMT, 46 half hours', () => {
    const tz = 'Europe/London';
    const from = Date.parse('2026-03-29T00:00:00Z');
    const to = Date.parse('2026-03-29T23:00:00Z'); // 00:00 BST on the 30th
    const book = bookOf('octopus', intervals(from - HOUR, to + HOUR, 30, () => ({ importPerKwh: 0.25, feedInPerKwh: null })));
    const days = run(tz, book, from, to, () => 1000);
    // 23 h × 1 kW = 23 kWh at £0.25 = £5.75.
    expect(days.map((d) => d.date)).toEqual(['2026-03-29']);
    expect(round4(days[0]!.importKwh)).toBe(23);
    expect(cents(days[0]!.importCost)).toBe(575);
  });
});
