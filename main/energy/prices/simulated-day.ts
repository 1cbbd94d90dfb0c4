import { localMinute } from '../tariff/local-time.js';

/**
 * The price simulators' one day (amber-simulator.ts, octopus-simulator.ts), the same every local
 * day: half-hour blocks in the source's own units and signs, so a test can work a bill by hand.
 *
 * Amber (Australia/Sydney), cents per kWh as the API gives them. `feedIn` is Amber's sign: below
 * zero the household is PAID (−5 = earns 5 c), above zero exporting costs money.
 *
 * | local time    | general | feedIn | what it shows                      |
 * |---------------|---------|--------|------------------------------------|
 * | 00:00–06:00   |   20    |   −5   |                                    |
 * | 06:00–09:00   |   32    |  −10   |                                    |
 * | 09:00–11:00   |   12    |   −3   |                                    |
 * | 11:00–13:00   |   −4    |   +2   | negative import, negative feed-in  |
 * | 13:00–16:00   |    8    |   −1   |                                    |
 * | 16:00–17:30   |   45    |  −15   |                                    |
 * | 17:30–18:00   |   60    |  −25   | spikeStatus `potential`            |
 * | 18:00–18:30   |  300    | −280   | spike                              |
 * | 18:30–21:00   |   50    |  −20   |                                    |
 * | 21:00–24:00   |   25    |   −6   |                                    |
 *
 * Octopus Agile (Europe/London), pence per kWh including VAT, import and Agile Outgoing export
 * (export: positive earns; the simulator's export goes below zero 13:00–14:00 to exercise the path).
 *
 * | local time    | import | export |                                     |
 * |---------------|--------|--------|-------------------------------------|
 * | 00:00–04:00   |  15    |   6    |                                     |
 * | 04:00–07:00   |  12    |   6    |                                     |
 * | 07:00–11:00   |  24    |  10    |                                     |
 * | 11:00–13:00   |  10    |   4    |                                     |
 * | 13:00–14:00   |  −2.5  |  −1    | negative import, negative export    |
 * | 14:00–16:00   |  18    |   8    |                                     |
 * | 16:00–17:00   |  38    |  20    |                                     |
 * | 17:00–17:30   |  95    |  45    | spike (over 3× the day's median)    |
 * | 17:30–19:00   |  38    |  20    |                                     |
 * | 19:00–23:00   |  22    |   9    |                                     |
 * | 23:00–24:00   |  16    |   9    |                                     |
 */
interface Block {
  /** Local minute the block starts at (it runs to the next block's start). */
  from: number;
  a: number;
  b: number;
}

const at = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

export const AMBER_DAY: readonly Block[] = [
  { from: at('00:00'), a: 20, b: -5 },
  { from: at('06:00'), a: 32, b: -10 },
  { from: at('09:00'), a: 12, b: -3 },
  { from: at('11:00'), a: -4, b: 2 },
  { from: at('13:00'), a: 8, b: -1 },
  { from: at('16:00'), a: 45, b: -15 },
  { from: at('17:30'), a: 60, b: -25 },
  { from: at('18:00'), a: 300, b: -280 },
  { from: at('18:30'), a: 50, b: -20 },
  { from: at('21:00'), a: 25, b: -6 },
];

export const OCTOPUS_DAY: readonly Block[] = [
  { from: at('00:00'), a: 15, b: 6 },
  { from: at('04:00'), a: 12, b: 6 },
  { from: at('07:00'), a: 24, b: 10 },
  { from: at('11:00'), a: 10, b: 4 },
  { from: at('13:00'), a: -2.5, b: -1 },
  { from: at('14:00'), a: 18, b: 8 },
  { from: at('16:00'), a: 38, b: 20 },
  { from: at('17:00'), a: 95, b: 45 },
  { from: at('17:30'), a: 38, b: 20 },
  { from: at('19:00'), a: 22, b: 9 },
  { from: at('23:00'), a: 16, b: 9 },
];

export const AMBER_ZONE = 'Australia/Sydney';
export const OCTOPUS_ZONE = 'Europe/London';

/** The block of `day` in force at instant `t` (local wall clock in `zone`). */
export function blockAt(day: readonly Block[], zone: string, t: number): { a: number; b: number; from: number } {
  const m = localMinute(t, zone).minute;
  let hit = day[0]!;
  for (const b of day) if (b.from <= m) hit = b;
  return hit;
}
