import { LiveFeed } from '../history/replay.js';
import { readPowerSamples } from '../history/sample-reader.js';
import type { EnergyFeatureModule, FeatureFactory } from '../feature.js';
import { dayCost, DayLedger, powerSampleOf, pricesAt, round4, type LedgerConfig } from '../tariff/ledger.js';
import { startOfLocalDay } from '../tariff/local-time.js';
import { pricingOn, type RatesAt, type TariffConfig } from '../tariff/windows.js';
import { tariffBlock, costEntities, type TariffSnapshot } from './published.js';


/**
 * Current grid flow priced at the rate in force, per hour: positive is a credit (export), negative a
 * cost (import). Export inside the super-export window earns the super rate until the day's cap.
 */
export function netPerHour(t: TariffConfig, grid: number | null, rates: RatesAt, superExportKwhToday: number): number | null {
  if (grid === null) return null;
  if (grid >= 0) return -(grid / 1000) * rates.importRate;
  const rate = rates.superExport && superExportKwhToday < t.superExport.capKwh ? t.superExport.rate : rates.feedInRate;
  return (-grid / 1000) * rate;
}

/**
 * Tariff and cost: integrates each poll into today's ledger (local day in the configured zone) and
 * adds `tariff` to the snapshot once anything is configured. After a start, today's polls so far
 * are read back from the history database (`replay`) so that a restart mid-day keeps today's cost.
 */
export const createCostFeature: FeatureFactory = (ctx) => {
  const config = (): LedgerConfig => ({ tariff: ctx.settings().tariff, timeZone: ctx.settings().general.timezone, prices: ctx.prices?.() ?? null });
  let ledger = new DayLedger(config);
  const feed = new LiveFeed(() => ledger);

  const rebuild = () => {
    ledger = new DayLedger(config);
    const now = ctx.clock.now();
    const { timeZone } = config();
    const today = ledger.advanceTo(now).date;
    const from = startOfLocalDay(today, timeZone);
    const n = readPowerSamples(ctx.historyFile, from, now + 1, (s) => ledger.feed(s));
    if (n) ctx.logger.info({ polls: n }, "today's cost rebuilt from history");
  };

  const view = (): TariffSnapshot | null => {
    const s = ctx.settings();
    const book = ctx.prices?.() ?? null;
    if (!pricingOn(s.tariff, book)) return null;
    const now = ctx.clock.now();
    const at = ledger.advanceTo(now);
    const day = ledger.current()!;
    const cost = dayCost(s.tariff, day, at);
    const state = ctx.state.get();
    const perHour = state.connected ? netPerHour(s.tariff, state.power.grid, pricesAt(s.tariff, at, now, book), day.superExportKwh) : null;
    return {
      currency: s.general.currency,
      netPerHour: perHour === null ? null : round4(perHour),
      pricedBy: book ? book.source : 'fixed',
      today: {
        date: day.date,
        importCost: round4(cost.importCost),
        feedIn: round4(cost.feedIn),
        superExportCredit: round4(cost.superExportCredit),
        zeroDrawCredit: round4(cost.zeroDrawCredit),
        zeroDrawMet: cost.zeroDrawMet,
        zeroDrawStatus: cost.zeroDrawStatus,
        supply: round4(cost.supply),
        net: round4(cost.net),
        importKwh: round4(day.importKwh),
        exportKwh: round4(day.exportKwh),
        superExportKwh: round4(day.superExportKwh),
        zeroDrawImportKwh: round4(day.zeroDrawImportKwh),
        fallbackKwh: round4(day.fallbackKwh),
      },
    };
  };

  return {
    name: 'cost',
    replay(now) {
      ledger = new DayLedger(config);
      const today = ledger.advanceTo(now).date;
      return feed.replay(ledger, startOfLocalDay(today, config().timeZone), (polls) => {
        if (polls) ctx.logger.info({ polls }, "today's cost rebuilt from history");
      });
    },
    onPoll(next, at) {
      if (next.connected) feed.live(powerSampleOf(next, at));
    },
    onSettings(prev, next) {
      // A new zone moves the day boundary: integrate today again under the new rules.
      if (prev.general.timezone !== next.general.timezone) rebuild();
    },
    snapshot() {
      const t = view();
      return t ? { tariff: t } : undefined;
    },
    routes(app) {
      // Today's bill line by line: each live price interval with its energy and money (docs/energy-api.md).
      app.get('/api/cost/intervals', async () => {
        const s = ctx.settings();
        const book = ctx.prices?.() ?? null;
        ledger.advanceTo(ctx.clock.now());
        const today = ledger.current()!;
        return {
          date: today.date,
          timezone: s.general.timezone,
          currency: pricingOn(s.tariff, book) ? s.general.currency : null,
          source: book ? book.source : null,
          fallbackKwh: round4(today.fallbackKwh),
          intervals: ledger.intervals().map((l) => ({
            start: new Date(l.start).toISOString(),
            end: new Date(l.end).toISOString(),
            importPerKwh: l.importPerKwh,
            feedInPerKwh: l.feedInPerKwh,
            importKwh: round4(l.importKwh),
            exportKwh: round4(l.exportKwh),
            importCost: round4(l.importCost),
            feedIn: round4(l.feedIn),
            net: round4(l.feedIn - l.importCost),
            spike: l.spike,
          })),
        };
      });
    },
  };
};

/** Today's cost at the tariff's prices (the tariff itself is a core setting: core-settings.ts). */
export const costFeature: EnergyFeatureModule<never, typeof tariffBlock> = { name: 'cost', snapshot: tariffBlock, entities: costEntities, create: createCostFeature };
