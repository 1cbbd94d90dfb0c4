import path from 'node:path';
import { z } from 'zod';
import { invalid } from '../../core/errors.js';
import { isoDate, parseInput } from '../../core/validate.js';
import { powerSampleOf } from '../tariff/ledger.js';
import { LiveFeed } from '../history/replay.js';
import { firstMissingDay, replayMissingDays } from '../history/sample-reader.js';
import { localMinute } from '../tariff/local-time.js';
import type { EnergyFeatureModule, FeatureFactory } from '../feature.js';
import { SavingsLedger, type SavingsConfig, type SavingsDay } from './ledger.js';
import { savingsCsv, savingsReport, type SavingsInput } from './report.js';
import { SavingsStore } from './store.js';
import { dayLengthMs } from './day-length.js';
import { savingsBlock } from './published.js';


export const savingsQuery = z
  .object({
    from: isoDate.optional(),
    to: isoDate.optional(),
    by: z.enum(['day', 'month', 'year']).default('month'),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .strict();

/** Longest range one request may ask for (ten years). */
export const MAX_DAYS = 3660;
const DAY = 86_400_000;
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** Default first day: 30 days for `day`, the year of `to` for `month`, ten years for `year`. */
export function defaultFrom(to: string, by: 'day' | 'month' | 'year'): string {
  if (by === 'day') return addDays(to, -29);
  if (by === 'month') return `${to.slice(0, 4)}-01-01`;
  return `${Number(to.slice(0, 4)) - 9}-01-01`;
}


/**
 * Savings (docs/savings.md): integrates every poll into three day ledgers (actual, without battery,
 * without solar or battery), stores each closed day in `savings.db`, rebuilds missing days from the
 * raw history on start, serves `GET /api/savings` and adds today's figures to the snapshot.
 */
export const createSavingsFeature: FeatureFactory = (ctx) => {
  let store: SavingsStore | null = null;
  const config = (): SavingsConfig => ({ tariff: ctx.settings().tariff, timeZone: ctx.settings().general.timezone, currency: ctx.settings().general.currency, prices: ctx.prices?.() ?? null });
  const put = (day: SavingsDay) => {
    try {
      store?.put(day);
    } catch (err) {
      ctx.logger.error({ err, date: day.date }, 'savings day not stored');
    }
  };
  let ledger = new SavingsLedger(config, put);
  const feed = new LiveFeed(() => ledger);
  /** A ledger that stores each day it closes unless the table has it already. */
  const ledgerFor = (s: SavingsStore) =>
    new SavingsLedger(config, (day) => {
      if (!s.has(day.date)) put(day);
    });
  const rebuilt = (polls: number, from: string) => {
    if (polls) ctx.logger.info({ polls, from }, 'savings rebuilt from history');
  };

  /** Covered for 99% of its length; the zone's calendar is asked only for 23–25 h coverage, where DST decides. */
  const isComplete = (d: SavingsDay, tz: string, offsets: Map<number, number>) => {
    if (d.coveredMs >= 0.99 * 25 * 3_600_000) return true;
    if (d.coveredMs < 0.99 * 23 * 3_600_000) return false;
    return d.coveredMs >= 0.99 * dayLengthMs(d.date, tz, offsets);
  };

  /** Stored days in [from, to] plus today so far. */
  const daysIn = (from: string, to: string): SavingsInput[] => {
    const { timeZone } = config();
    const offsets = new Map<number, number>();
    const rows: SavingsInput[] = (store?.range(from, to) ?? []).map((d) => ({ ...d, complete: isComplete(d, timeZone, offsets) }));
    const cur = ledger.current(ctx.clock.now());
    if (cur && cur.date >= from && cur.date <= to && !rows.some((r) => r.date === cur.date)) rows.push({ ...cur, complete: false });
    return rows;
  };

  return {
    name: 'savings',
    start() {
      store = new SavingsStore(path.join(ctx.dataDir, 'energy', 'savings.db'));
    },
    /** Every day of the retained history that the table lacks, and today so far. */
    replay(now) {
      const s = store;
      if (!s) return null;
      try {
        ledger = ledgerFor(s);
        const from = firstMissingDay(ctx.historyFile, now, config().timeZone, (d) => s.has(d));
        return feed.replay(ledger, from.at, (polls) => rebuilt(polls, from.date));
      } catch (err) {
        ctx.logger.error({ err }, 'savings could not be rebuilt from history');
        return null;
      }
    },
    stop() {
      store?.close();
      store = null;
    },
    /** The closed days in the table (the outlook fits its plant factor to their production). */
    producedDays: (from, to) => store?.range(from, to) ?? [],
    async reload() {
      if (!store) return;
      store.close();
      const s = (store = new SavingsStore(path.join(ctx.dataDir, 'energy', 'savings.db')));
      ledger = ledgerFor(s);
      const { polls, from } = replayMissingDays({ historyFile: ctx.historyFile, now: ctx.clock.now(), timeZone: config().timeZone, has: (d) => s.has(d), feed: (p) => ledger.feed(p) });
      rebuilt(polls, from);
    },
    onPoll(next, at) {
      if (next.connected) feed.live(powerSampleOf(next, at));
    },
    snapshot() {
      const cur = ledger.current(ctx.clock.now());
      if (!cur) return;
      const { total } = savingsReport([{ ...cur, complete: false }], 'day');
      return {
        savings: {
          today: {
          date: cur.date,
          currency: total.currency,
          paid: total.paid,
          paidWithoutBattery: total.paidWithoutBattery,
          paidWithoutSolar: total.paidWithoutSolar,
          savedByBattery: total.savedByBattery,
          savedBySolarAndBattery: total.savedBySolarAndBattery,
          selfSufficiencyPct: total.selfSufficiencyPct,
          selfConsumptionPct: total.selfConsumptionPct,
          importKwh: total.importKwh,
          supplyCharge: total.currency === null ? null : config().tariff.dailySupplyCharge,
          },
        },
      };
    },
    routes(app) {
      app.get('/api/savings', async (req, reply) => {
        const q = parseInput(savingsQuery, req.query, 'query');
        const { timeZone } = config();
        const today = localMinute(ctx.clock.now(), timeZone).date;
        const to = q.to ?? today;
        const from = q.from ?? defaultFrom(to, q.by);
        if (from > to) throw invalid('from', 'must not be after "to"');
        if (Date.parse(to) - Date.parse(from) >= MAX_DAYS * DAY) throw invalid('from', `the range may span at most ${MAX_DAYS} days`);
        const report = savingsReport(daysIn(from, to), q.by);
        if (q.format === 'csv') {
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="energy-savings-by-${q.by}-${from}-to-${to}.csv"`)
            .send(savingsCsv(report.periods));
        }
        return { from, to, by: q.by, timezone: timeZone, ...report };
      });
    },
  };
};

/** The savings report as the energy bridge's feature list takes it (no settings of its own: it uses the tariff's). */
export const savingsFeature: EnergyFeatureModule<never, typeof savingsBlock> = { name: 'savings', snapshot: savingsBlock, create: createSavingsFeature };
