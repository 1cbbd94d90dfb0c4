import { z } from 'zod';
import type { FetchLike } from '../feature.js';
import { getPriceJson, PriceSourceError } from './fetch-json.js';
import type { PriceDescriptor, PriceInterval } from './price-book.js';

/**
 * Amber Electric's public API (https://api.amber.com.au/v1; shapes from Amber's published OpenAPI
 * file, github.com/amberelectric/public-api): the account's sites, and a site's current, previous
 * and forecast prices. Amber gives cents per kWh with its own signs; these become the price book's
 * (price-book.ts): main currency unit per kWh, feed-in turned around (Amber's feed-in price below
 * zero pays the household, ours above zero does).
 */
const WHO = 'Amber';
const MAX_SITES = 50;
const MAX_INTERVALS = 12_000;
const DESCRIPTORS: readonly PriceDescriptor[] = ['negative', 'extremelyLow', 'veryLow', 'low', 'neutral', 'high', 'spike'];

const siteAnswer = z
  .array(
    z.object({
      id: z.string().regex(/^[A-Za-z0-9]{1,64}$/),
      nmi: z.string().max(20).optional(),
      network: z.string().max(100).optional(),
      status: z.string().max(20).optional(),
      intervalLength: z.number().int().min(1).max(60).optional(),
    }),
  )
  .max(MAX_SITES);

export type AmberSite = z.output<typeof siteAnswer>[number];

const intervalAnswer = z
  .array(
    z.object({
      type: z.enum(['ActualInterval', 'CurrentInterval', 'ForecastInterval']),
      duration: z.number().int().refine((d) => d === 5 || d === 15 || d === 30, 'duration must be 5, 15 or 30'),
      perKwh: z.number().min(-100_000).max(100_000),
      endTime: z.iso.datetime({ offset: true }),
      channelType: z.string().max(40),
      spikeStatus: z.string().max(20).optional(),
      descriptor: z.string().max(20).optional(),
      estimate: z.boolean().optional(),
    }),
  )
  .max(MAX_INTERVALS);

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const base = (u: string) => u.replace(/\/+$/, '');
/** Cents to the main unit, without float noise (0.1 + 0.2). */
const fromCents = (c: number) => Math.round(c * 1e5) / 1e7;

/** The account's sites (for the settings page's "pick a site"). */
export async function fetchAmberSites(fetchFn: FetchLike, baseUrl: string, token: string, signal?: AbortSignal): Promise<AmberSite[]> {
  if (!token) throw new PriceSourceError('Amber: no API token is set');
  const parsed = siteAnswer.safeParse(await getPriceJson(fetchFn, `${base(baseUrl)}/sites`, WHO, { headers: auth(token), signal }));
  if (!parsed.success) throw new PriceSourceError("Amber's list of sites is not understood");
  return parsed.data;
}

export interface AmberQuery {
  previous: number;
  next: number;
  /** Minutes (Amber: 5 or 30). */
  resolution: 5 | 30;
}

/** A site's prices around now, as book intervals (general and feed-in merged by interval). */
export async function fetchAmberPrices(fetchFn: FetchLike, baseUrl: string, token: string, siteId: string, q: AmberQuery, signal?: AbortSignal): Promise<PriceInterval[]> {
  if (!token) throw new PriceSourceError('Amber: no API token is set');
  if (!/^[A-Za-z0-9]{1,64}$/.test(siteId)) throw new PriceSourceError('Amber: no site is chosen');
  const u = new URL(`${base(baseUrl)}/sites/${encodeURIComponent(siteId)}/prices/current`);
  u.searchParams.set('previous', String(q.previous));
  u.searchParams.set('next', String(q.next));
  u.searchParams.set('resolution', String(q.resolution));
  const parsed = intervalAnswer.safeParse(await getPriceJson(fetchFn, u.toString(), WHO, { headers: auth(token), signal }));
  if (!parsed.success) throw new PriceSourceError("Amber's prices are not understood");
  return amberIntervals(parsed.data);
}

/** Amber's per-channel objects to book intervals; an interval without a general price is left out. */
export function amberIntervals(list: z.output<typeof intervalAnswer>): PriceInterval[] {
  const byStart = new Map<number, { general?: (typeof list)[number]; feedIn?: (typeof list)[number] }>();
  for (const iv of list) {
    if (iv.channelType !== 'general' && iv.channelType !== 'feedIn') continue;
    const end = Date.parse(iv.endTime);
    const start = end - iv.duration * 60_000;
    const slot = byStart.get(start) ?? {};
    slot[iv.channelType] = iv;
    byStart.set(start, slot);
  }
  const out: PriceInterval[] = [];
  for (const [start, { general, feedIn }] of byStart) {
    if (!general) continue;
    const descriptor = DESCRIPTORS.includes(general.descriptor as PriceDescriptor) ? (general.descriptor as PriceDescriptor) : null;
    out.push({
      start,
      end: start + general.duration * 60_000,
      importPerKwh: fromCents(general.perKwh),
      feedInPerKwh: feedIn ? fromCents(-feedIn.perKwh) : null,
      descriptor,
      kind: general.type === 'ActualInterval' ? 'actual' : general.type === 'CurrentInterval' ? 'current' : 'forecast',
      estimate: general.estimate ?? false,
      spike: general.spikeStatus === 'spike' || descriptor === 'spike',
    });
  }
  return out.sort((a, b) => a.start - b.start);
}
