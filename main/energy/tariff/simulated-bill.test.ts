import { afterEach, describe, expect, it } from 'vitest';
import { startAmberSimulator } from '../prices/amber-simulator.js';
import { fetchAmberPrices } from '../prices/amber.js';
import { fetchOctopusRates, octopusIntervals } from '../prices/octopus.js';
import { startOctopusSimulator } from '../prices/octopus-simulator.js';
import { bookOf, type PriceBook } from '../prices/price-book.js';
import { dayCost, DayLedger, round4, type DayTotals } from './ledger.js';
import { startOfLocalDay } from './local-time.js';
import { tariffSettings } from './settings.js';

// Issue 43, end to end: the price simulators' day (prices/simulated-day.ts), fetched over HTTP on
// loopback by the real Amber and Octopus clients, prices a day of 1 s polls; the day's bill equals
// one worked by hand from the simulator's published table, to the cent.
const HOUR = 3_600_000;
const cents = (v: number) => Math.round(v * 100);
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A day of 1 s polls from `from` to `to` (inclusive: the last poll closes the day) with grid power `grid(t)`. */
function priceDay(book: PriceBook, tz: string, from: number, to: number, grid: (t: number) => number): DayTotals {
  const closed: DayTotals[] = [];
  const tariff = tariffSettings.parse({ importRate: 9.99, feedInRate: 9.99 }); // fixed rates no interval should need
  const l = new DayLedger(() => ({ tariff, timeZone: tz, prices: book }), (d) => closed.push(d));
  for (let t = from; t <= to; t += 1000) l.feed({ t, solar: 0, home: 0, grid: grid(t), battery: 0 });
  expect(closed).toHaveLength(1);
  return closed[0]!;
}

describe('the simulators’ day priced through the real clients', () => {
  it('Amber (Sydney, 5-minute intervals): the bill to the cent', async () => {
    const tz = 'Australia/Sydney';
    const day = startOfLocalDay('2026-01-14', tz);
    const local = (hh: number, mm = 0) => day + hh * HOUR + mm * 60_000;
    const amber = await startAmberSimulator({ now: () => local(24, 1) });
    closers.push(() => amber.close());
    // The whole day back from just after midnight: 24 h of 5-minute intervals and a few more.
    const list = await fetchAmberPrices(fetch, amber.url, amber.token, amber.siteId, { previous: 300, next: 0 });
    expect(list.filter((iv) => iv.start >= day && iv.end <= local(24))).toHaveLength(288);
    // The house imports 1 kW, 2 kW from 16:00 to 18:00; it exports 2 kW 11:00-13:00 and 3 kW in the 18:00 spike.
    const grid = (t: number) => (t >= local(11) && t < local(13) ? -2000 : t >= local(18) && t < local(18, 30) ? -3000 : t >= local(16) && t < local(18) ? 2000 : 1000);
    const d = priceDay(bookOf('amber', list), tz, day, local(24), grid);
    // Import, from the simulator's table (general, c/kWh):
    //   00-06 6 kWh × 20 = 120; 06-09 3 × 32 = 96; 09-11 2 × 12 = 24; 13-16 3 × 8 = 24;
    //   16-17:30 3 kWh × 45 = 135; 17:30-18 1 kWh × 60 = 60; 18:30-21 2.5 × 50 = 125; 21-24 3 × 25 = 75.
    //   23.5 kWh, 659 c.
    expect(round4(d.importKwh)).toBe(23.5);
    expect(cents(d.importCost)).toBe(659);
    // Feed-in (Amber's sign: +2 c costs the household, −280 c earns it):
    //   11-13 4 kWh × −2 c = −8 c (export cost money); 18-18:30 1.5 kWh × 280 c = 420 c. 412 c.
    expect(round4(d.exportKwh)).toBe(5.5);
    expect(cents(d.feedIn)).toBe(412);
    // Every kWh had an interval price; net 412 − 659 = −247 c.
    expect(d.fallbackKwh).toBe(0);
    expect(cents(dayCost(tariffSettings.parse({}), d, null).net)).toBe(-247);
  });

  it('Octopus Agile (London, half hours, import and Agile Outgoing): the bill to the penny', async () => {
    const tz = 'Europe/London';
    const day = startOfLocalDay('2026-01-14', tz); // GMT: local time is UTC
    const local = (hh: number, mm = 0) => day + hh * HOUR + mm * 60_000;
    const now = local(24, 30);
    const octopus = await startOctopusSimulator({ now: () => now });
    closers.push(() => octopus.close());
    const imports = await fetchOctopusRates(fetch, octopus.url, octopus.product, octopus.importTariff, day, local(24));
    const exports = await fetchOctopusRates(fetch, octopus.url, octopus.exportProduct, octopus.exportTariff, day, local(24));
    expect(imports).toHaveLength(48);
    // The house imports 1 kW, 4 kW 13:00-13:30; it exports 2 kW 13:30-14:00 and 17:00-17:30.
    const grid = (t: number) => (t >= local(13) && t < local(13, 30) ? 4000 : (t >= local(13, 30) && t < local(14)) || (t >= local(17) && t < local(17, 30)) ? -2000 : 1000);
    const d = priceDay(bookOf('octopus', octopusIntervals(imports, exports, now)), tz, day, local(24), grid);
    // Import, from the simulator's table (p/kWh incl. VAT):
    //   00-04 4 kWh × 15 = 60; 04-07 3 × 12 = 36; 07-11 4 × 24 = 96; 11-13 2 × 10 = 20;
    //   13-13:30 2 kWh × −2.5 = −5 (paid to consume); 14-16 2 × 18 = 36; 16-17 1 × 38 = 38;
    //   17:30-19 1.5 × 38 = 57; 19-23 4 × 22 = 88; 23-24 1 × 16 = 16. 24.5 kWh, 442 p.
    expect(round4(d.importKwh)).toBe(24.5);
    expect(cents(d.importCost)).toBe(442);
    // Export (Agile Outgoing): 13:30-14 1 kWh × −1 p = −1 p (export cost money); 17-17:30 1 kWh × 45 p = 45 p. 44 p.
    expect(round4(d.exportKwh)).toBe(2);
    expect(cents(d.feedIn)).toBe(44);
    expect(d.fallbackKwh).toBe(0);
    expect(cents(dayCost(tariffSettings.parse({}), d, null).net)).toBe(-398);
  });
});
