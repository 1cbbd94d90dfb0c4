import { localMinute, nextDate, startOfLocalDay } from '../tariff/local-time.js';
import { blockAt, OCTOPUS_DAY, OCTOPUS_ZONE } from './simulated-day.js';
import { startSimServer, type SimFailure, type SimRequest } from './sim-server.js';

/**
 * A local stand-in for Octopus Energy's REST API (https://api.octopus.energy, documented at
 * https://developer.octopus.energy/docs/api/, "List tariff charges"), for tests and the demo:
 * `GET /v1/products/{product}/electricity-tariffs/{tariff}/standard-unit-rates/?period_from=&period_to=&page_size=&page=`
 * answers `{count, next, previous, results: [{value_exc_vat, value_inc_vat, valid_from, valid_to}]}`
 * in pence per kWh, newest first, paginated (`next` the absolute URL of the next page, else null;
 * page_size default 100, at most 1500). Published rates need no token.
 *
 * Prices are the one simulated day (simulated-day.ts) in half hours. Like Agile, tomorrow's rates
 * appear at 16:00 UK time (`publishAtMinute`); before that the rates end at tonight's midnight.
 */
export interface OctopusSimulator {
  /** Base URL as the settings take it (the origin; paths start /v1). */
  readonly url: string;
  readonly product: string;
  readonly importTariff: string;
  readonly exportProduct: string;
  readonly exportTariff: string;
  readonly requests: SimRequest[];
  fail(mode: SimFailure | null): void;
  close(): Promise<void>;
}

export interface OctopusSimulatorOptions {
  now: () => number;
  /** Local (UK) minute of the day tomorrow's rates appear at (default 16:00). */
  publishAtMinute?: number;
  host?: string;
}

const HALF_HOUR = 30 * 60_000;
const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');

export async function startOctopusSimulator(opts: OctopusSimulatorOptions): Promise<OctopusSimulator> {
  const product = 'AGILE-24-10-01';
  const importTariff = 'E-1R-AGILE-24-10-01-C';
  const exportProduct = 'AGILE-OUTGOING-19-05-13';
  const exportTariff = 'E-1R-AGILE-OUTGOING-19-05-13-C';
  const tariffs = new Map([
    [`${product}/${importTariff}`, 'a' as const],
    [`${exportProduct}/${exportTariff}`, 'b' as const],
  ]);
  let origin = '';

  const server = await startSimServer((req) => {
    const m = /^\/v1\/products\/([^/]+)\/electricity-tariffs\/([^/]+)\/standard-unit-rates\/?$/.exec(req.path);
    const which = m ? tariffs.get(`${m[1]}/${m[2]}`) : undefined;
    if (!which) return { status: 404, body: { detail: 'Not found.' } };
    const now = opts.now();
    const today = localMinute(now, OCTOPUS_ZONE);
    const published = today.minute >= (opts.publishAtMinute ?? 16 * 60) ? nextDate(nextDate(today.date)) : nextDate(today.date);
    const lastEnd = startOfLocalDay(published, OCTOPUS_ZONE);
    const parse = (name: string, dflt: number) => {
      const v = req.query.get(name);
      if (v === null) return dflt;
      const t = Date.parse(v);
      return Number.isFinite(t) ? t : NaN;
    };
    const from = parse('period_from', now - 2 * 86_400_000);
    const to = Math.min(parse('period_to', lastEnd), lastEnd);
    if (Number.isNaN(from) || Number.isNaN(to)) return { status: 400, body: { period_from: ['Enter a valid date/time.'] } };
    const size = Number(req.query.get('page_size') ?? 100);
    const page = Number(req.query.get('page') ?? 1);
    if (!Number.isInteger(size) || size < 1 || size > 1500) return { status: 400, body: { detail: 'page_size must be 1 to 1500' } };
    if (!Number.isInteger(page) || page < 1) return { status: 404, body: { detail: 'Invalid page.' } };
    const all: unknown[] = [];
    // Newest first, as the API lists them.
    for (let s = Math.ceil(to / HALF_HOUR) * HALF_HOUR - HALF_HOUR; s + HALF_HOUR > from; s -= HALF_HOUR) {
      if (s + HALF_HOUR > to) continue;
      const inc = blockAt(OCTOPUS_DAY, OCTOPUS_ZONE, s)[which];
      all.push({ value_exc_vat: Math.round((inc / 1.05) * 10000) / 10000, value_inc_vat: inc, valid_from: iso(s), valid_to: iso(s + HALF_HOUR), payment_method: null });
    }
    const pageUrl = (p: number) => {
      const u = new URL(`${origin}${req.path}`);
      for (const [k, v] of req.query) if (k !== 'page') u.searchParams.set(k, v);
      u.searchParams.set('page', String(p));
      return u.toString();
    };
    const results = all.slice((page - 1) * size, page * size);
    if (page > 1 && results.length === 0) return { status: 404, body: { detail: 'Invalid page.' } };
    return { status: 200, body: { count: all.length, next: page * size < all.length ? pageUrl(page + 1) : null, previous: page > 1 ? pageUrl(page - 1) : null, results } };
  }, opts.host);
  origin = server.origin;

  return { url: server.origin, product, importTariff, exportProduct, exportTariff, requests: server.requests, fail: server.fail, close: server.close };
}
