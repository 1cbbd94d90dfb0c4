import { z } from 'zod';
import { snapshotEntities, snapshotGauges, type BlockOf } from '../feature.js';

/** One live price interval as the snapshot carries it (issue 43): household signs, currency main unit per kWh. */
export const priceIntervalSchema = z.object({
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  importPerKwh: z.number(),
  feedInPerKwh: z.number().nullable(),
  descriptor: z.enum(['negative', 'extremelyLow', 'veryLow', 'low', 'neutral', 'high', 'spike']).nullable(),
  spike: z.boolean(),
  estimate: z.boolean(),
});

/**
 * What the live prices publish (a part of the core, like the tariff: prices-core.ts): the snapshot's
 * `prices` block, the price now on MQTT and in the metrics (per kWh in the currency; absent or null
 * with the fixed rates; not the gateway's, so they stay while it does not answer).
 */
export const pricesBlock = {
  prices: z
    .object({
      source: z.enum(['amber', 'octopus']),
      currency: z.string(),
      /** True when no interval covers now or the source has not answered for too long. */
      stale: z.boolean(),
      fetchedAt: z.iso.datetime().nullable(),
      current: priceIntervalSchema.nullable(),
      /** The next 24 hours of known intervals after the current one, in time order. */
      forecast: z.array(priceIntervalSchema),
    })
    .meta({ description: "Additive (issue 43): live prices from Amber or Octopus, per kWh in the currency's main unit with the household's signs (feed-in below zero: exporting costs money); present only when a live source is set. See docs/prices.md." })
    .optional(),
};
export type PricesBlock = BlockOf<typeof pricesBlock>;

export const pricesEntities = snapshotEntities<PricesBlock>([
  { key: 'import_price', component: 'sensor', name: 'Import price', icon: 'mdi:cash-plus', unitFrom: (u) => ({ unit: `${u.currency}/kWh`, deviceClass: 'monetary' }), value: (s) => s.prices?.current?.importPerKwh ?? null },
  { key: 'feed_in_price', component: 'sensor', name: 'Feed-in price', icon: 'mdi:cash-minus', unitFrom: (u) => ({ unit: `${u.currency}/kWh`, deviceClass: 'monetary' }), value: (s) => s.prices?.current?.feedInPerKwh ?? null },
  { key: 'price_spike', component: 'binary_sensor', name: 'Price spike', icon: 'mdi:flash-alert', value: (s) => (s.prices ? s.prices.current?.spike === true : null) },
]);

const currency = { names: ['currency'], of: (s: PricesBlock) => ({ currency: s.prices?.currency ?? '' }) };
export const pricesGauges = snapshotGauges<PricesBlock>([
  { name: 'import_price', help: 'Live import price now, currency per kWh (below zero: paid to use power).', labels: currency, value: (s) => s.prices?.current?.importPerKwh },
  { name: 'feed_in_price', help: 'Live feed-in price now, currency per kWh (below zero: exporting costs money).', labels: currency, value: (s) => s.prices?.current?.feedInPerKwh },
  { name: 'price_spike', help: 'Whether the live price interval now is a spike (1) or not (0).', value: (s) => (s.prices?.current ? (s.prices.current.spike ? 1 : 0) : null) },
  { name: 'prices_stale', help: 'Whether the live prices are stale (1: no interval covers now or the source has not answered for too long).', value: (s) => (s.prices ? (s.prices.stale ? 1 : 0) : null) },
]);
