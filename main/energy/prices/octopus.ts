import { z } from 'zod';
import { localMinute } from '../tariff/local-time.js';
import type { FetchLike } from '../feature.js';
import { getPriceJson, PriceSourceError } from './fetch-json.js';
import type { PriceDescriptor, PriceInterval } from './price-book.js';

/**
 * Octopus Energy's published tariff rates (https://api.octopus.energy; "List tariff charges",
 * https://developer.octopus.energy/docs/api/): a tariff's half-hourly `standard-unit-rates`, pence
 * per kWh with VAT (`value_inc_vat`), newest first, paginated. No token is needed for published
 * rates. Pence become pounds; an export (Agile Outgoing) rate is already what a kWh sent earns.
 */
const WHO = 'Octopus';
export const OCTOPUS_ZONE = 'Europe/London';
const PAGE_SIZE = 1500;
/** Pages followed at most (a hostile `next` must not loop us). */
const MAX_PAGES = 10;

const ratesAnswer = z.object({
  count: z.number().int().min(0).optional(),
  next: z.string().max(2048).nullable().optional(),
  results: z
    .array(
      z.object({
        value_inc_vat: z.number().min(-10_000).max(10_000),
        valid_from: z.iso.datetime({ offset: true }),
        valid_to: z.iso.datetime({ offset: true }).nullable(),
      }),
    )
    .max(PAGE_SIZE),
});

export interface OctopusRate {
  start: number;
  end: number;
  /** Pence per kWh including VAT. */
  pence: number;
}

const fromPence = (p: number) => Math.round(p * 1e5) / 1e7;

/** A tariff's rates valid in `[from, to)`, oldest first (intervals of at most a day). */
export async function fetchOctopusRates(fetchFn: FetchLike, baseUrl: string, product: string, tariff: string, from: number, to: number, signal?: AbortSignal, pageSize = PAGE_SIZE): Promise<OctopusRate[]> {
  const origin = new URL(baseUrl).origin;
  let url: string | null = `${baseUrl.replace(/\/+$/, '')}/v1/products/${encodeURIComponent(product)}/electricity-tariffs/${encodeURIComponent(tariff)}/standard-unit-rates/?period_from=${new Date(from).toISOString()}&period_to=${new Date(to).toISOString()}&page_size=${pageSize}`;
  const out: OctopusRate[] = [];
  for (let page = 0; url; page++) {
    if (page >= MAX_PAGES) throw new PriceSourceError(`${WHO}: too many pages of rates`);
    const parsed = ratesAnswer.safeParse(await getPriceJson(fetchFn, url, WHO, { signal }));
    if (!parsed.success) throw new PriceSourceError(`${WHO}'s rates are not understood`);
    for (const r of parsed.data.results) {
      const start = Date.parse(r.valid_from);
      const end = r.valid_to === null ? start + 30 * 60_000 : Date.parse(r.valid_to);
      if (!(end > start) || end - start > 86_400_000) continue;
      out.push({ start, end, pence: r.value_inc_vat });
    }
    const next: string | null = parsed.data.next ?? null;
    // The next page must be on the same service: a `next` elsewhere is not followed.
    if (next !== null && new URL(next, origin).origin !== origin) throw new PriceSourceError(`${WHO}'s next page points elsewhere`);
    url = next === null ? null : new URL(next, origin).toString();
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Book intervals from import rates and (optional) export rates. Octopus has no descriptor: each
 * interval's rank among its UK day's import rates is mapped onto Amber's words (below zero
 * `negative`; bottom 10% `veryLow`, to 30% `low`, to 70% `neutral`, else `high`); an interval
 * over three times the day's median (and above zero) is a `spike`.
 */
export function octopusIntervals(imports: readonly OctopusRate[], exports: readonly OctopusRate[] | null, now: number): PriceInterval[] {
  const exportAt = new Map((exports ?? []).map((r) => [r.start, r.pence]));
  const days = new Map<string, number[]>();
  for (const r of imports) {
    const d = localMinute(r.start, OCTOPUS_ZONE).date;
    const list = days.get(d) ?? [];
    list.push(r.pence);
    days.set(d, list);
  }
  for (const list of days.values()) list.sort((a, b) => a - b);
  return imports.map((r) => {
    const sorted = days.get(localMinute(r.start, OCTOPUS_ZONE).date)!;
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    const rank = sorted.length > 1 ? sorted.indexOf(r.pence) / (sorted.length - 1) : 0.5;
    const spike = r.pence > 0 && median > 0 && r.pence > 3 * median;
    const descriptor: PriceDescriptor = r.pence < 0 ? 'negative' : spike ? 'spike' : rank < 0.1 ? 'veryLow' : rank < 0.3 ? 'low' : rank < 0.7 ? 'neutral' : 'high';
    const exp = exportAt.get(r.start);
    return {
      start: r.start,
      end: r.end,
      importPerKwh: fromPence(r.pence),
      feedInPerKwh: exp === undefined ? null : fromPence(exp),
      descriptor,
      kind: r.end <= now ? 'actual' : r.start <= now ? 'current' : 'forecast',
      estimate: false,
      spike,
    };
  });
}
