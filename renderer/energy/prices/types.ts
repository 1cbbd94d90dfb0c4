/** The snapshot's live prices block (issue 43) as the pages read it: type-only, from the service's schema. */
import type { Snapshot } from '../types.js';

export type Prices = NonNullable<Snapshot['prices']>;
export type PricePoint = Prices['forecast'][number];
export type PriceDescriptor = NonNullable<PricePoint['descriptor']>;

/** One line of today's bill, as GET /api/cost/intervals gives it. */
export interface IntervalLine {
  start: string;
  end: string;
  importPerKwh: number;
  feedInPerKwh: number;
  importKwh: number;
  exportKwh: number;
  importCost: number;
  feedIn: number;
  /** Feed-in minus import cost: positive earned, negative cost. */
  net: number;
  spike: boolean;
}

export interface IntervalBill {
  date: string;
  timezone: string;
  currency: string | null;
  source: 'amber' | 'octopus' | null;
  fallbackKwh: number;
  intervals: IntervalLine[];
}
