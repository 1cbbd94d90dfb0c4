import path from 'node:path';
import { z } from 'zod';
import { invalid } from '../../core/errors.js';
import { isoDate, parseInput } from '../../core/validate.js';
import type { EnergyFeatureModule, FeatureFactory } from '../feature.js';
import { DailyStore, type DailyRow } from '../history/daily-store.js';
import { LiveFeed } from '../history/replay.js';
import { firstMissingDay } from '../history/sample-reader.js';
import { dayCost, DayLedger, type DayTotals, type LedgerConfig, powerSampleOf, round4 } from '../tariff/ledger.js';
import { localMinute, nextDate, startOfLocalDay } from '../tariff/local-time.js';
import { pricingOn } from '../tariff/windows.js';

const dailyQuery = z
  .object({
    from: isoDate.optional(),
    to: isoDate.optional(),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .strict();

/** Longest range one request may ask for (ten years). */
const MAX_DAYS = 3660;
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export interface DailyView extends Omit<DailyRow, 'coveredMs'> {
  coveredHours: number;
  /** False for today (still running) and for days the polls did not fully cover. */
  complete: boolean;
}

export const CSV_COLUMNS = ['date', 'solarKwh', 'homeKwh', 'importKwh', 'exportKwh', 'batteryChargeKwh', 'batteryDischargeKwh', 'importCost', 'feedIn', 'superExportCredit', 'zeroDrawCredit', 'supply', 'net', 'currency', 'coveredHours', 'complete'] as const;

/**
 * Daily totals: per local day, energy (kWh) and, with a tariff, cost and net. Days are written as
 * they close; on start, days missing from the table are rebuilt from the raw history.
 */
export const createDailyFeature: FeatureFactory = (ctx) => {
  let store: DailyStore | null = null;
  const config = (): LedgerConfig => ({ tariff: ctx.settings().tariff, timeZone: ctx.settings().general.timezone, prices: ctx.prices?.() ?? null });

  const rowOf = (day: DayTotals, running: boolean): DailyRow => {
    const s = ctx.settings();
    const priced = pricingOn(s.tariff, ctx.prices?.());
    const cost = priced ? dayCost(s.tariff, day, running ? ledger.advanceTo(ctx.clock.now()) : null) : null;
    return {
      date: day.date,
      solarKwh: day.solarKwh,
      homeKwh: day.homeKwh,
      importKwh: day.importKwh,
      exportKwh: day.exportKwh,
      batteryChargeKwh: day.batteryChargeKwh,
      batteryDischargeKwh: day.batteryDischargeKwh,
      importCost: cost?.importCost ?? null,
      feedIn: cost?.feedIn ?? null,
      superExportCredit: cost?.superExportCredit ?? null,
      zeroDrawCredit: cost?.zeroDrawCredit ?? null,
      supply: cost?.supply ?? null,
      net: cost?.net ?? null,
      currency: priced ? s.general.currency : null,
      coveredMs: day.coveredMs,
    };
  };

  const close = (day: DayTotals): void => {
    try {
      store?.put(rowOf(day, false));
    } catch (err) {
      ctx.logger.error({ err, date: day.date }, 'daily total not stored');
    }
  };
  let ledger = new DayLedger(config, (day) => close(day));
  const feed = new LiveFeed(() => ledger);

  /** Rebuilds every day of the retained history that the table lacks, and today so far. */
  const rebuild = (s: DailyStore, now: number) => {
    // Days already in the table are left as they were written (history may hold only part of them now).
    ledger = new DayLedger(config, (day) => {
      if (!s.has(day.date)) close(day);
    });
    const from = firstMissingDay(ctx.historyFile, now, config().timeZone, (d) => s.has(d));
    return feed.replay(ledger, from.at, (polls) => {
      if (polls) ctx.logger.info({ polls, from: from.date }, 'daily totals rebuilt from history');
    });
  };

  const view = (r: DailyRow, complete: boolean): DailyView => {
    const { coveredMs, ...rest } = r;
    const money = (v: number | null) => (v === null ? null : round4(v));
    return {
      ...rest,
      solarKwh: round4(r.solarKwh),
      homeKwh: round4(r.homeKwh),
      importKwh: round4(r.importKwh),
      exportKwh: round4(r.exportKwh),
      batteryChargeKwh: round4(r.batteryChargeKwh),
      batteryDischargeKwh: round4(r.batteryDischargeKwh),
      importCost: money(r.importCost),
      feedIn: money(r.feedIn),
      superExportCredit: money(r.superExportCredit),
      zeroDrawCredit: money(r.zeroDrawCredit),
      supply: money(r.supply),
      net: money(r.net),
      coveredHours: round4(coveredMs / 3_600_000),
      complete,
    };
  };

  return {
    name: 'daily',
    start() {
      store = new DailyStore(path.join(ctx.dataDir, 'energy', 'daily.db'));
    },
    replay(now) {
      if (!store) return null;
      try {
        return rebuild(store, now);
      } catch (err) {
        ctx.logger.error({ err }, 'daily totals could not be rebuilt from history');
        return null;
      }
    },
    stop() {
      store?.close();
      store = null;
    },
    onPoll(next, at) {
      if (next.connected) feed.live(powerSampleOf(next, at));
    },
    routes(app) {
      app.get('/api/history/daily', async (req, reply) => {
        const q = parseInput(dailyQuery, req.query, 'query');
        const { timeZone } = config();
        const today = localMinute(ctx.clock.now(), timeZone).date;
        const to = q.to ?? today;
        const from = q.from ?? addDays(to, -29);
        if (from > to) throw invalid('from', 'must not be after "to"');
        if (Date.parse(to) - Date.parse(from) > MAX_DAYS * 86_400_000) throw invalid('from', `the range may span at most ${MAX_DAYS} days`);
        const rows = (store?.range(from, to) ?? []).map((r) => view(r, r.coveredMs >= 0.99 * (startOfLocalDay(nextDate(r.date), timeZone) - startOfLocalDay(r.date, timeZone))));
        ledger.advanceTo(ctx.clock.now());
        const cur = ledger.current();
        if (cur && cur.date >= from && cur.date <= to) rows.push(view(rowOf(cur, true), false));
        const s = ctx.settings();
        if (q.format === 'csv') {
          const esc = (v: unknown) => (v === null || v === undefined ? '' : String(v));
          const lines = [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((c) => esc(r[c])).join(','))];
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="energy-daily-${from}-to-${to}.csv"`)
            .send(lines.join('\n') + '\n');
        }
        return { from, to, timezone: timeZone, currency: pricingOn(s.tariff, ctx.prices?.()) ? s.general.currency : null, days: rows };
      });
    },
  };
};

/** Daily totals (no settings of its own). */
export const dailyFeature: EnergyFeatureModule<never> = { name: 'daily', create: createDailyFeature };
