import { z } from 'zod';

/** The savings' snapshot block (docs/savings.md). */
export const savingsBlock = {
  /** Today's savings (docs/savings.md): what was paid against the two counterfactuals. Present after the first poll. */
  savings: z
    .object({
      today: z.object({
        date: z.string(),
        currency: z.string().nullable(),
        paid: z.number().nullable(),
        paidWithoutBattery: z.number().nullable(),
        paidWithoutSolar: z.number().nullable(),
        savedByBattery: z.number().nullable(),
        savedBySolarAndBattery: z.number().nullable(),
        selfSufficiencyPct: z.number().nullable(),
        selfConsumptionPct: z.number().nullable(),
        /** Today's grid import so far, kWh: what the page names beside the self-sufficiency. */
        importKwh: z.number().optional(),
        /** The daily supply charge inside `paid` (paid even with no grid import); null without a tariff. */
        supplyCharge: z.number().nullable().optional(),
      }),
    })
    .meta({ description: 'Additive (issue 26): today so far in the savings model of docs/savings.md; paid = costs minus credits, money null without a tariff.' })
    .optional(),
};
