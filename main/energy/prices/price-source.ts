import type { Clock, Timer } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { localMinute, nextDate, startOfLocalDay } from '../tariff/local-time.js';
import type { FetchLike } from '../feature.js';
import { fetchAmberPrices } from './amber.js';
import { PriceSourceError } from './fetch-json.js';
import { fetchOctopusRates, OCTOPUS_ZONE, octopusIntervals } from './octopus.js';
import { bookOf, type PriceBook, type PriceInterval } from './price-book.js';
import { readPriceCache, writePriceCache } from './price-cache.js';
import type { PricesSettings } from './settings.js';

/**
 * The live price source (Amber or Octopus, `prices` settings): fetches on the source's own
 * boundary, keeps what it learnt in a book, and on disk (price-cache.ts) so a restart or an outage
 * keeps pricing from the last known and forecast intervals.
 *
 * - Amber: each minute while the current interval is an estimate, else at the next interval's start;
 *   each fetch asks back to the last good fetch (up to a day) so an outage loses no settled interval.
 * - Octopus: at the top of each hour, and every 10 minutes from 16:00 UK time until tomorrow's
 *   rates appear.
 * - A failure backs off (30 s doubling to 15 min; a 429's Retry-After; a refused token 30 min).
 * The book is `stale()` when no interval covers now or the last good fetch is too old.
 */
export interface PriceStatus {
  source: PricesSettings['source'];
  lastError: string | null;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
  fetchedAt: number | null;
}

export interface PriceSource {
  /** The book while a live source is set (null: the tariff's fixed rates apply). */
  book(): PriceBook | null;
  status(): PriceStatus;
  start(): void;
  stop(): void;
  /** Applies a settings change (a new source or site starts over). */
  apply(): void;
  /** Settles when no fetch is in flight (tests). */
  idle(): Promise<void>;
}

export interface PriceSourceDeps {
  clock: Clock;
  logger: Logger;
  settings: () => PricesSettings;
  fetch: FetchLike;
  dataDir: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far back intervals are kept (the day tables and a restart mid-day read today and yesterday). */
const KEEP_MS = 3 * DAY;
const BACKOFF_START_MS = 30_000;
const BACKOFF_MAX_MS = 15 * MINUTE;
const REFUSED_RETRY_MS = 30 * MINUTE;
/** Amber: one day of intervals at most each way. */
const AMBER_DAY_MS = DAY;

/** What identifies the source's prices: a cache or book of another site or tariff is not used. */
export function sourceKey(p: PricesSettings): string | null {
  const origin = (u: string) => {
    try {
      return new URL(u).origin;
    } catch {
      return u;
    }
  };
  if (p.source === 'amber') return p.amber.token && p.amber.siteId ? `amber:${p.amber.siteId}@${origin(p.amber.baseUrl)}` : null;
  if (p.source === 'octopus') return p.octopus.importProduct && p.octopus.importTariff ? `octopus:${p.octopus.importProduct}/${p.octopus.importTariff}:${p.octopus.exportProduct}/${p.octopus.exportTariff}@${origin(p.octopus.baseUrl)}` : null;
  return null;
}

/** The interval's kind as of `now` (a stored `forecast` that has begun is `current`). */
const kindAt = (iv: PriceInterval, now: number): PriceInterval => {
  const kind = iv.end <= now ? 'actual' : iv.start <= now ? 'current' : 'forecast';
  return kind === iv.kind ? iv : { ...iv, kind };
};

export function createPriceSource(deps: PriceSourceDeps): PriceSource {
  const log = deps.logger.child({ component: 'prices' });
  const intervals = new Map<number, PriceInterval>();
  let snap = bookOf('amber', []);
  let key: string | null = null;
  let fetchedAt: number | null = null;
  let timer: Timer | null = null;
  let generation = 0;
  let failures = 0;
  let inFlight: Promise<void> = Promise.resolve();
  let cancel = new AbortController();
  let cacheProblem: string | null = null;
  const status: Omit<PriceStatus, 'source' | 'fetchedAt'> = { lastError: null, lastAttemptAt: null, nextAttemptAt: null };

  const source = () => deps.settings().source;
  const rebuild = () => {
    snap = bookOf(source() === 'octopus' ? 'octopus' : 'amber', [...intervals.values()]);
  };

  const maxAgeMs = (): number => {
    if (source() === 'octopus') return 3 * 60 * MINUTE;
    const cur = snap.at(deps.clock.now());
    return Math.max(15 * MINUTE, 3 * (cur ? cur.end - cur.start : 5 * MINUTE));
  };

  const book: PriceBook = {
    get source() {
      return source() === 'octopus' ? 'octopus' : 'amber';
    },
    at: (t) => {
      const iv = snap.at(t);
      return iv ? kindAt(iv, deps.clock.now()) : null;
    },
    between: (from, to) => {
      const now = deps.clock.now();
      return snap.between(from, to).map((iv) => kindAt(iv, now));
    },
    fetchedAt: () => fetchedAt,
    stale: () => {
      const now = deps.clock.now();
      return snap.at(now) === null || fetchedAt === null || now - fetchedAt > maxAgeMs();
    },
  };

  const merge = (list: readonly PriceInterval[], at: number) => {
    for (const iv of list) {
      // A newer answer replaces what overlaps it (an estimate settles; a forecast is revised).
      for (const [s, old] of intervals) if (old.start < iv.end && old.end > iv.start) intervals.delete(s);
      intervals.set(iv.start, iv);
    }
    for (const [s, iv] of intervals) if (iv.end < at - KEEP_MS) intervals.delete(s);
    fetchedAt = at;
    rebuild();
    if (key === null) return;
    try {
      writePriceCache(deps.dataDir, { key, fetchedAt, intervals: [...intervals.values()].sort((a, b) => a.start - b.start) });
      cacheProblem = null;
    } catch (err) {
      const msg = (err as Error).message;
      if (msg !== cacheProblem) log.warn({ error: msg }, 'price cache not written');
      cacheProblem = msg;
    }
  };

  const fetchAmber = async (p: PricesSettings, now: number, signal: AbortSignal): Promise<PriceInterval[]> => {
    const cur = snap.at(now);
    const dur = cur ? cur.end - cur.start : 5 * MINUTE;
    const perDay = Math.round(AMBER_DAY_MS / dur);
    // Back to the last good fetch (an outage loses no settled interval), a day at most.
    const previous = fetchedAt === null ? perDay : Math.min(perDay, Math.max(1, Math.ceil((now - fetchedAt) / dur) + 1));
    return fetchAmberPrices(deps.fetch, p.amber.baseUrl, p.amber.token, p.amber.siteId, { previous, next: perDay, resolution: dur === 30 * MINUTE ? 30 : 5 }, signal);
  };

  const fetchOctopus = async (p: PricesSettings, now: number, signal: AbortSignal): Promise<PriceInterval[]> => {
    const today = localMinute(now, OCTOPUS_ZONE).date;
    const yesterdayStart = startOfLocalDay(today, OCTOPUS_ZONE) - DAY;
    const end = startOfLocalDay(nextDate(nextDate(today)), OCTOPUS_ZONE);
    const o = p.octopus;
    const imports = await fetchOctopusRates(deps.fetch, o.baseUrl, o.importProduct, o.importTariff, yesterdayStart, end, signal);
    const exports = o.exportProduct && o.exportTariff ? await fetchOctopusRates(deps.fetch, o.baseUrl, o.exportProduct, o.exportTariff, yesterdayStart, end, signal) : null;
    return octopusIntervals(imports, exports, now);
  };

  /** When the next fetch is due after a good one. */
  const nextAfterSuccess = (now: number): number => {
    if (source() === 'octopus') {
      const local = localMinute(now, OCTOPUS_ZONE);
      const tomorrowEnd = startOfLocalDay(nextDate(nextDate(local.date)), OCTOPUS_ZONE);
      const topOfHour = (Math.floor(now / (60 * MINUTE)) + 1) * 60 * MINUTE - now;
      return local.minute >= 16 * 60 && snap.at(tomorrowEnd - 1) === null ? Math.min(10 * MINUTE, topOfHour) : topOfHour;
    }
    const cur = snap.at(now);
    if (!cur || cur.estimate) return MINUTE;
    return Math.max(1000, cur.end - now);
  };

  const backoff = (err: unknown): number => {
    failures++;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (failures - 1));
    if (err instanceof PriceSourceError && (err.status === 401 || err.status === 403)) return REFUSED_RETRY_MS;
    if (err instanceof PriceSourceError && err.retryAfterMs !== undefined) return Math.max(base, err.retryAfterMs);
    return base;
  };

  const schedule = (gen: number, ms: number) => {
    if (gen !== generation) return;
    status.nextAttemptAt = deps.clock.now() + ms;
    timer = deps.clock.setTimeout(() => {
      timer = null;
      inFlight = cycle(gen);
    }, ms);
    timer.unref?.();
  };

  const cycle = async (gen: number): Promise<void> => {
    const p = deps.settings();
    const now = deps.clock.now();
    status.lastAttemptAt = now;
    status.nextAttemptAt = null;
    try {
      const list = p.source === 'amber' ? await fetchAmber(p, now, cancel.signal) : await fetchOctopus(p, now, cancel.signal);
      if (gen !== generation) return;
      if (list.length === 0) throw new PriceSourceError(`${p.source === 'amber' ? 'Amber' : 'Octopus'} gave no prices`);
      merge(list, deps.clock.now());
      failures = 0;
      status.lastError = null;
      schedule(gen, nextAfterSuccess(deps.clock.now()));
    } catch (err) {
      if (gen !== generation) return;
      status.lastError = err instanceof PriceSourceError ? err.message : 'the price fetch failed';
      log.warn({ error: status.lastError, detail: err instanceof PriceSourceError ? err.detail : (err as Error).message }, 'price fetch failed');
      schedule(gen, backoff(err));
    }
  };

  const stop = () => {
    generation++;
    cancel.abort();
    cancel = new AbortController();
    if (timer) deps.clock.clear(timer);
    timer = null;
    status.nextAttemptAt = null;
  };

  /**
   * Starts over for the current settings: fetches now. A new source, site or tariff forgets the
   * old prices and takes back its own cache (a restart mid-day keeps the day's intervals).
   */
  const apply = () => {
    stop();
    failures = 0;
    status.lastError = null;
    const next = sourceKey(deps.settings());
    if (next !== key) {
      intervals.clear();
      fetchedAt = null;
      key = next;
      const cached = key ? readPriceCache(deps.dataDir) : null;
      if (cached && cached.key === key) {
        for (const iv of cached.intervals) intervals.set(iv.start, iv);
        fetchedAt = cached.fetchedAt;
      }
      rebuild();
    }
    if (key) schedule(generation, 0);
    else if (source() !== 'fixed') status.lastError = source() === 'amber' ? 'set the Amber API token and pick a site' : 'set the Octopus product and tariff codes';
  };

  return {
    book: () => (key === null ? null : book),
    status: () => ({ source: source(), fetchedAt, ...status }),
    start: apply,
    stop: () => {
      stop();
      key = null;
    },
    apply,
    idle: async () => {
      // A fetch may schedule nothing new; wait for the one in flight (and one it started).
      let seen: Promise<void> | null = null;
      while (seen !== inFlight) {
        seen = inFlight;
        await seen;
      }
    },
  };
}
