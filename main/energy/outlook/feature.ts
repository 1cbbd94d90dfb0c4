import path from 'node:path';
import type { Timer } from '../../core/clock.js';
import type { LiveState } from '../live-state.js';
import { LiveFeed, replayPolls } from '../history/replay.js';
import { readPowerSamples } from '../history/sample-reader.js';
import { DayLedger, powerSampleOf, pricesAt, round4 } from '../tariff/ledger.js';
import { localMinute, nextDate, startOfLocalDay } from '../tariff/local-time.js';
import type { EnergyFeatureModule, FeatureFactory, IrradianceHour } from '../feature.js';
import { solarSection } from './settings.js';
import { batteryOutlook, instantOf, peakWindowsOn } from './battery-outlook.js';
import { priceHours, type PriceHour } from './price-hours.js';
import { ForecastStore } from './forecast-store.js';
import { fitPlant, FIT_DAYS, irradianceByDate, solarPowerAt, type PlantFit } from './solar-model.js';
import { UsualLoad } from './usual-load.js';
import { outlookBlock, type OutlookSnapshot } from './published.js';
import { outlookLive, type OutlookLive } from './live-fields.js';

/** The irradiance forecast is fetched this often; a failed fetch is retried sooner. */
export const FORECAST_REFRESH_MS = 60 * 60_000;
export const FORECAST_RETRY_MS = 5 * 60_000;
/** Days of raw history the usual load is learned from (as much as the retention keeps). */
const USUAL_LOAD_DAYS = 28;
const DAY = 86_400_000;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const kwh = (v: number | null) => (v === null ? null : round4(v));
const hourView = (h: PriceHour | null) => (h === null ? null : { startsAt: iso(h.startsAt)!, endsAt: iso(h.endsAt)!, averagePerKwh: round4(h.averagePerKwh) });
/** The evening the day ahead prices the battery's use over: from 16:00 (or now, if later) to midnight. */
const EVENING_FROM_MINUTE = 16 * 60;

/**
 * Solar forecast and battery outlook (docs/savings.md): the hourly irradiance forecast for the
 * weather place (`ctx.irradiance`, the weather feature's), scaled by a plant factor fitted to this
 * plant's own production (`ctx.producedDays`, the savings feature's closed days); the battery
 * simulated from its SOC over today's peak windows with the household's usual load. Adds `outlook`
 * to the live state (for the alert "battery will not cover the peak window") and to the snapshot.
 */
export const createOutlookFeature: FeatureFactory<typeof solarSection> = (ctx) => {
  const log = ctx.logger.child({ component: 'solar-forecast' });
  const forecasts = new ForecastStore(path.join(ctx.dataDir, 'energy', 'solar-forecast.json'));
  const producedDays = (from: string, to: string) => ctx.producedDays?.(from, to) ?? [];
  /** What the forecast was last asked for (its key): a settings change that alters it fetches again. */
  let appliedKey: string | null = null;
  let hours: IrradianceHour[] = [];
  const status = { lastError: null as string | null, fetchedAt: null as number | null };
  let timer: Timer | null = null;
  let generation = 0;
  let cancel = new AbortController();
  let usual: { key: string; load: UsualLoad } | null = null;
  let cached: { key: string; view: OutlookSnapshot } | null = null;
  /** Today's production so far, integrated from the polls like the daily totals. */
  const ledgerConfig = () => ({ tariff: ctx.settings().tariff, timeZone: ctx.settings().general.timezone });
  let production = new DayLedger(ledgerConfig);
  const feed = new LiveFeed(() => production);
  const rebuildToday = () => {
    production = new DayLedger(ledgerConfig);
    const now = ctx.clock.now();
    const date = production.advanceTo(now).date;
    try {
      readPowerSamples(ctx.historyFile, startOfLocalDay(date, tz()), now + 1, (p) => production.feed(p));
    } catch (err) {
      log.error({ err }, "today's production could not be read from history");
    }
  };

  const tz = () => ctx.settings().general.timezone;

  const schedule = (gen: number, ms: number) => {
    if (gen !== generation) return;
    timer = ctx.clock.setTimeout(() => void cycle(gen), ms);
    timer.unref?.();
  };
  const cycle = async (gen: number) => {
    timer = null;
    const s = ctx.settings();
    const forecast = ctx.irradiance?.();
    if (!forecast) return;
    try {
      // The past FIT_DAYS too: with a week of history already here, the fit learns from it at once
      // instead of from forecasts this bridge happened to record as the days went by.
      const got = await forecast.fetch(s.general.timezone, FIT_DAYS, cancel.signal);
      if (gen !== generation) return;
      hours = got;
      status.fetchedAt = ctx.clock.now();
      status.lastError = null;
      cached = null;
      forecasts.record(irradianceByDate(got, s.general.timezone), localMinute(ctx.clock.now(), s.general.timezone).date);
      schedule(gen, FORECAST_REFRESH_MS);
    } catch (err) {
      if (gen !== generation) return;
      status.lastError = (err as Error).message;
      cached = null;
      log.warn({ error: status.lastError }, 'solar forecast fetch failed');
      schedule(gen, FORECAST_RETRY_MS);
    }
  };
  const stopFetching = () => {
    generation++;
    cancel.abort();
    cancel = new AbortController();
    if (timer) ctx.clock.clear(timer);
    timer = null;
  };
  const apply = () => {
    stopFetching();
    const forecast = ctx.irradiance?.() ?? null;
    appliedKey = forecast?.key() ?? null;
    if (!forecast?.enabled()) {
      hours = [];
      status.lastError = null;
      cached = null;
      return;
    }
    schedule(generation, 0);
  };

  /**
   * The usual load, learned again once a day from the raw history: read in batches in the
   * background (up to 28 days of polls, 2.4 million at 1 s), never on the poll that asks. Until the
   * day's is learned, the last one learned serves (none after a start: the outlook holds the
   * current home load meanwhile).
   */
  let learning: { key: string; stop: AbortController } | null = null;
  const usualLoad = (now: number): UsualLoad | null => {
    const zone = tz();
    const today = localMinute(now, zone).date;
    const key = `${today}|${zone}`;
    if (usual?.key === key) return usual.load;
    if (learning?.key !== key) {
      learning?.stop.abort();
      const load = new UsualLoad(zone);
      const job = (learning = { key, stop: new AbortController() });
      const done = () => {
        if (learning !== job) return;
        usual = { key, load };
        learning = null;
        cached = null;
      };
      void replayPolls(ctx.historyFile, [{ from: now - USUAL_LOAD_DAYS * DAY, feed: (p) => load.add(p), done }], startOfLocalDay(today, zone) - 1, { logger: log, signal: job.stop.signal });
    }
    return usual?.load ?? null;
  };

  /** kWh produced so far on local `date` (null before the first poll of the day). */
  const producedToday = (date: string): number | null => {
    production.advanceTo(ctx.clock.now());
    const day = production.current();
    return day && day.date === date && production.lastSample() ? kwh(day.solarKwh) : null;
  };

  const fit = (today: string): PlantFit => {
    const zone = tz();
    const days = Object.entries(forecasts.all())
      .filter(([d]) => d < today)
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .slice(0, FIT_DAYS * 2);
    const solarByDate = new Map<string, number>();
    if (days.length) {
      for (const r of producedDays(days[days.length - 1]![0], days[0]![0])) {
        const full = startOfLocalDay(nextDate(r.date), zone) - startOfLocalDay(r.date, zone);
        if (r.coveredMs >= 0.99 * full) solarByDate.set(r.date, r.solarKwh);
      }
    }
    const pairs = days.filter(([d]) => solarByDate.has(d)).map(([date, f]) => ({ date, kwhM2: f.kwhM2, solarKwh: solarByDate.get(date)! }));
    return fitPlant(pairs, ctx.settings().solar.ratedKwp);
  };

  const compute = (state: LiveState, now: number): OutlookSnapshot => {
    const zone = tz();
    const s = ctx.settings();
    const here = localMinute(now, zone);
    const date = here.date;
    const tomorrow = nextDate(date);
    const yesterday = new Date(Date.parse(`${date}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
    const plant = fit(date);
    const factor = plant.kwhPerKwhM2;
    const byDate = irradianceByDate(hours, zone);
    const expected = (date: string) => (factor !== null && byDate.has(date) ? factor * byDate.get(date)! : null);
    const yForecast = forecasts.get(yesterday);
    const yActual = producedDays(yesterday, yesterday)[0]?.solarKwh ?? null;
    const solar: OutlookSnapshot['solar'] = {
      basis: plant.basis,
      kwhPerKwhM2: factor === null ? null : round4(factor),
      fitDays: plant.days,
      ratedKwp: s.solar.ratedKwp,
      forecastAt: iso(status.fetchedAt),
      error: status.lastError,
      today: { date, expectedKwh: kwh(expected(date)), actualKwh: null },
      tomorrow: { date: tomorrow, expectedKwh: kwh(expected(tomorrow)) },
      yesterday: { date: yesterday, forecastKwh: kwh(factor !== null && yForecast?.dayAheadKwhM2 != null ? factor * yForecast.dayAheadKwhM2 : null), actualKwh: kwh(yActual) },
    };

    const capacity = s.battery.capacityKwh ?? state.battery.ratedCapacityKwh;
    const reserve = s.battery.reserveSoc ?? state.battery.reserveSoc ?? 0;
    const soc = state.battery.soc;
    const windows = peakWindowsOn(s.tariff, date, here.weekday, zone).filter((w) => w.endsAt > now);
    let battery: OutlookSnapshot['battery'] = null;
    const book = ctx.prices?.() ?? null;
    const evening = { fromAt: Math.max(now, instantOf(date, EVENING_FROM_MINUTE, zone)), untilAt: startOfLocalDay(tomorrow, zone), kwh: 0, worth: 0, simulated: false };
    // Each kWh the battery is expected to give in the evening is worth what buying it then would cost.
    const onDischarge = (from: number, _to: number, given: number) => {
      if (from < evening.fromAt || from >= evening.untilAt) return;
      evening.kwh += given;
      evening.worth += given * pricesAt(s.tariff, localMinute(from, zone), from, book).importRate;
    };
    if (state.connected && soc !== null && capacity !== null && capacity > 0) {
      const load = usualLoad(now);
      const homeNow = state.power.home === null ? 0 : state.power.home / 1000;
      const solarKw = factor !== null && hours.length ? solarPowerAt(hours, factor) : () => 0;
      evening.simulated = true;
      const o = batteryOutlook({ now, timeZone: zone, soc, reserveSoc: reserve, capacityKwh: capacity, solarKw, loadKw: (t) => load?.kwAt(t) ?? homeNow, windows, onDischarge });
      battery = {
        soc,
        reserveSoc: reserve,
        capacityKwh: capacity,
        solarBasis: factor !== null && hours.length ? 'forecast' : 'none',
        loadBasis: load && load.samples > 0 ? 'history' : 'current',
        fullAt: iso(o.fullAt),
        reserveAt: iso(o.reserveAt),
        until: iso(o.until)!,
        windows: o.windows.map((w) => ({ name: w.name, start: w.start, end: w.end, startsAt: iso(w.startsAt)!, endsAt: iso(w.endsAt)!, covers: w.covers, reserveAt: iso(w.reserveAt), shortMinutes: w.shortMinutes, message: w.message })),
        coversPeak: o.windows.length ? o.windows.every((w) => w.covers) : null,
      };
    }
    if (!book) return { solar, battery };
    const from = book.at(now)?.start ?? now;
    const { cheapest, dearest } = priceHours(book.between(from, from + DAY), from, from + DAY);
    const prices: NonNullable<OutlookSnapshot['prices']> = {
      currency: s.general.currency,
      cheapest: hourView(cheapest),
      dearest: hourView(dearest),
      evening: evening.simulated && evening.fromAt < evening.untilAt ? { fromAt: iso(evening.fromAt)!, untilAt: iso(evening.untilAt)!, batteryKwh: round4(evening.kwh), worth: round4(evening.worth) } : null,
    };
    return { solar, battery, prices };
  };

  const view = (state: LiveState, now: number): OutlookSnapshot => {
    // Recomputed once a minute (the SOC moves little in one), and when the battery becomes known or unknown.
    const key = `${Math.floor(now / 60_000)}|${state.connected}|${state.battery.soc === null}|${state.battery.ratedCapacityKwh === null}`;
    if (cached?.key !== key) cached = { key, view: compute(state, now) };
    const v = cached.view;
    return { ...v, solar: { ...v.solar, today: { ...v.solar.today, actualKwh: producedToday(v.solar.today.date) } } };
  };

  return {
    name: 'outlook',
    start() {
      forecasts.load();
      apply();
    },
    stop() {
      stopFetching();
      learning?.stop.abort();
      learning = null;
    },
    onSettings(prev, next) {
      if ((ctx.irradiance?.()?.key() ?? null) !== appliedKey || prev.general.timezone !== next.general.timezone) apply();
      if (prev.general.timezone !== next.general.timezone) rebuildToday();
      cached = null;
    },
    /** Today's production so far, read back from history after a start. */
    replay(now) {
      production = new DayLedger(ledgerConfig);
      const date = production.advanceTo(now).date;
      return feed.replay(production, startOfLocalDay(date, tz()));
    },
    onPoll(next, at) {
      if (next.connected) feed.live(powerSampleOf(next, at));
      const battery = view(next, at).battery;
      const w = battery?.windows.find((x) => !x.covers) ?? null;
      return { outlook: { coversPeak: battery?.coversPeak ?? null, message: w ? `${w.name}: ${w.message}` : null } } satisfies OutlookLive;
    },
    snapshot() {
      return { outlook: view(ctx.state.get(), ctx.clock.now()) };
    },
    routes(app) {
      app.get('/api/outlook', async () => view(ctx.state.get(), ctx.clock.now()));
    },
  };
};

/** The forecast and battery outlook as the energy bridge's feature list takes it: the `solar` section and the running feature. */
export const outlookFeature: EnergyFeatureModule<typeof solarSection, typeof outlookBlock, typeof outlookLive> = { name: 'outlook', settings: [solarSection], snapshot: outlookBlock, live: outlookLive, create: createOutlookFeature };
