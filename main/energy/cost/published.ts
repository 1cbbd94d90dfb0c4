import { z } from 'zod';
import { snapshotEntities, type BlockOf } from '../feature.js';

/** What today's cost publishes: the snapshot's `tariff` block and the net cost today on MQTT (in the currency the settings name). */
export const tariffBlock = {
  tariff: z
    .object({
      currency: z.string(),
      netPerHour: z.number().nullable(),
      /** Additive (issue 43): what priced the day, the tariff's fixed rates or a live source's intervals. */
      pricedBy: z.enum(['fixed', 'amber', 'octopus']).optional(),
      today: z.object({
        /** Local date (YYYY-MM-DD, configured zone) the figures cover. */
        date: z.string(),
        importCost: z.number(),
        feedIn: z.number(),
        superExportCredit: z.number(),
        zeroDrawCredit: z.number(),
        /** True only once the zero-draw window has ended within the tolerance. */
        zeroDrawMet: z.boolean(),
        /** `soFar` = inside the window and still within the tolerance (credit not yet counted). */
        zeroDrawStatus: z.enum(['off', 'notStarted', 'soFar', 'met', 'missed', 'noData']),
        supply: z.number(),
        /** Credits minus costs; positive means the day earned money. */
        net: z.number(),
        importKwh: z.number(),
        exportKwh: z.number(),
        superExportKwh: z.number(),
        zeroDrawImportKwh: z.number(),
        /** Additive (issue 43): grid kWh priced at the fixed rates because no live interval price covered it. */
        fallbackKwh: z.number().optional(),
      }),
    })
    .optional(),
};
export type TariffBlock = BlockOf<typeof tariffBlock>;
export type TariffSnapshot = NonNullable<TariffBlock['tariff']>;

export const costEntities = snapshotEntities<TariffBlock>([
  { key: 'cost_today', component: 'sensor', name: 'Net cost today', icon: 'mdi:cash', unitFrom: (u) => ({ unit: u.currency, deviceClass: 'monetary' }), value: (s) => (s.tariff ? -s.tariff.today.net : null) },
]);
