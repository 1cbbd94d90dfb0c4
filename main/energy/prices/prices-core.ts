import { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import { parseInput } from '../../core/validate.js';
import type { EnergyCore } from '../core-settings.js';
import type { EnergyFeature } from '../feature.js';
import type { PricesBlock } from './published.js';
import { PROBE_RATE, registerProbeRoutes } from '../security/probe-limit.js';
import { fetchAmberSites } from './amber.js';
import { PriceSourceError } from './fetch-json.js';
import type { PriceBook, PriceInterval } from './price-book.js';
import { createPriceSource, probePrices, type PriceSource } from './price-source.js';
import { pricesSettings } from './settings.js';
import type { preHandlerAsyncHookHandler } from 'fastify';

const sitesBody = z.object({ token: z.string().trim().min(1).max(200).optional() }).strict();
/** The test takes the source, site and codes being edited; the service addresses and a token not typed are the saved ones. */
const testBody = z
  .object({
    source: z.enum(['amber', 'octopus']),
    amber: z.object({ token: z.string().trim().max(200).optional(), siteId: z.string().trim().max(64).optional() }).strict().optional(),
    octopus: z.object({ importProduct: z.string().max(80).optional(), importTariff: z.string().max(80).optional(), exportProduct: z.string().max(80).optional(), exportTariff: z.string().max(80).optional() }).strict().optional(),
  })
  .strict();

export interface PricesCore extends EnergyFeature {
  /** The live book while Amber or Octopus is set (features read it as `ctx.prices`). */
  book(): PriceBook | null;
  readonly source: PriceSource;
}

export interface PricesCoreDeps {
  clock: Clock;
  logger: Logger;
  settings: () => EnergyCore;
  outbound: Outbound;
  dataDir: string;
  gate: preHandlerAsyncHookHandler;
}

/**
 * The price source as part of the core (the tariff is core, so where its prices come from is too):
 * it runs beside the features with the same hooks (start, stop, settings changes, routes), and hands
 * them its book through their context. Amber and Octopus are internet services: a home address only
 * when the owner wrote that very address in the setting (the demo's and the tests' simulators).
 */
export function createPricesCore(deps: PricesCoreDeps): PricesCore {
  const fetch = deps.outbound.fetcher(() => {
    const p = deps.settings().prices;
    return { purpose: 'internet', configured: [p.source === 'octopus' ? p.octopus.baseUrl : p.amber.baseUrl] };
  });
  const amberFetch = deps.outbound.fetcher(() => ({ purpose: 'internet', configured: [deps.settings().prices.amber.baseUrl] }));
  const octopusFetch = deps.outbound.fetcher(() => ({ purpose: 'internet', configured: [deps.settings().prices.octopus.baseUrl] }));
  const source = createPriceSource({ clock: deps.clock, logger: deps.logger, settings: () => deps.settings().prices, fetch, dataDir: deps.dataDir });
  const message = (err: unknown) => (err instanceof PriceSourceError ? err.message : 'the request failed');

  return {
    name: 'prices',
    source,
    book: () => source.book(),
    start: () => source.start(),
    stop: () => source.stop(),
    onSettings(prev, next) {
      if (JSON.stringify(prev.prices) !== JSON.stringify(next.prices)) source.apply();
    },
    snapshot() {
      const block = pricesBlock(source.book(), deps.clock.now(), deps.settings().general.currency);
      return block ? { prices: block } : undefined;
    },
    routes(app) {
      app.get('/api/prices', async () => {
        const book = source.book();
        const now = deps.clock.now();
        return { ...source.status(), stale: book?.stale() ?? false, current: book?.at(now) ?? null, intervals: book?.between(now, now + 86_400_000) ?? [] };
      });
      registerProbeRoutes(app, 'price requests', (scope) => {
        // The account's sites, for the settings page's "pick a site": with the token typed in, or the saved one.
        scope.post('/api/prices/amber/sites', { preHandler: deps.gate, config: { rateLimit: PROBE_RATE } }, async (req) => {
          const body = parseInput(sitesBody, req.body ?? {}, 'body');
          const a = deps.settings().prices.amber;
          try {
            const sites = await fetchAmberSites(amberFetch, a.baseUrl, body.token ?? a.token);
            return { ok: true, sites: sites.map((s) => ({ id: s.id, nmi: s.nmi ?? '', network: s.network ?? '', status: s.status ?? '', intervalLength: s.intervalLength ?? null })) };
          } catch (err) {
            return { ok: false, error: message(err), sites: [] };
          }
        });
        // One fetch with the values being edited; nothing is kept. The answer is the current price and how many intervals came.
        scope.post('/api/test/prices', { preHandler: deps.gate, config: { rateLimit: PROBE_RATE } }, async (req) => {
          const body = parseInput(testBody, req.body ?? {}, 'body');
          const saved = deps.settings().prices;
          const amber = { ...saved.amber, ...(body.amber?.siteId !== undefined ? { siteId: body.amber.siteId } : {}), ...(body.amber?.token ? { token: body.amber.token } : {}) };
          const candidate = parseInput(pricesSettings, { source: body.source, amber, octopus: { ...saved.octopus, ...body.octopus } }, 'body');
          try {
            const r = await probePrices(body.source === 'amber' ? amberFetch : octopusFetch, candidate, deps.clock.now());
            return { ok: true, current: r.current, intervals: r.count, currency: deps.settings().general.currency };
          } catch (err) {
            return { ok: false, error: message(err) };
          }
        });
      });
    },
  };
}

const iso = (t: number) => new Date(t).toISOString();
const shown = (iv: PriceInterval) => ({ start: iso(iv.start), end: iso(iv.end), importPerKwh: iv.importPerKwh, feedInPerKwh: iv.feedInPerKwh, descriptor: iv.descriptor, spike: iv.spike, estimate: iv.estimate });

/** The snapshot's `prices` block: the current interval and the next 24 hours; absent without a live source. */
export function pricesBlock(book: PriceBook | null, now: number, currency: string): PricesBlock['prices'] {
  if (!book) return undefined;
  const current = book.at(now);
  const fetchedAt = book.fetchedAt();
  return {
    source: book.source,
    currency,
    stale: book.stale(),
    fetchedAt: fetchedAt === null ? null : iso(fetchedAt),
    current: current ? shown(current) : null,
    forecast: book.between(current ? current.end : now, now + 86_400_000).filter((iv) => iv.start >= now).map(shown),
  };
}
