import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createOutbound } from '../../core/outbound.js';
import { createDailyFeature } from '../daily/feature.js';
import type { FeatureContext } from '../feature.js';
import { createHistory, sampleFromState } from '../history/index.js';
import { replayPolls } from '../history/replay.js';
import { emptyLiveState, LiveStateStore, type LiveState } from '../live-state.js';
import { bookOf, type PriceInterval } from '../prices/price-book.js';
import { createSavingsFeature } from '../savings/feature.js';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { startOfLocalDay } from '../tariff/local-time.js';
import { createCostFeature } from './feature.js';

// Issue 43: a day priced at Amber's 5-minute intervals through the cost, daily and savings features,
// with a restart in the middle of the spike interval (today's polls read back from the history file),
// and the battery charged from the grid counted against the battery. Figures worked by hand below.
const tz = 'Australia/Sydney';
const MIN = 60_000;
const HOUR = 60 * MIN;
const day = startOfLocalDay('2026-01-14', tz);
const local = (hh: number, mm = 0, ss = 0) => day + hh * HOUR + mm * MIN + ss * 1000;
const settings = energySettingsSchema.parse({ general: { timezone: tz, currency: 'AUD' }, tariff: { importRate: 0.99, feedInRate: 0.01, dailySupplyCharge: 1 } });

// Prices: $0.30 import / $0.06 feed-in; 03:00-04:00 a cheap $0.10; 18:00-18:30 a spike at $3.
const book = bookOf(
  'amber',
  Array.from({ length: 24 * 12 + 12 }, (_, i): PriceInterval => {
    const start = day + i * 5 * MIN;
    const cheap = start >= local(3) && start < local(4);
    const spike = start >= local(18) && start < local(18, 30);
    return { start, end: start + 5 * MIN, importPerKwh: spike ? 3 : cheap ? 0.1 : 0.3, feedInPerKwh: 0.06, descriptor: spike ? 'spike' : cheap ? 'low' : 'neutral', kind: 'actual', estimate: false, spike };
  }),
);

// The house: 600 W all day and no solar. 03:00-04:00 the battery charges 2.4 kW from the grid (3 kW
// imported); 18:00-18:30 it discharges 600 W and covers the house (nothing imported).
function stateAt(t: number): LiveState {
  const [battery, grid] = t >= local(3) && t < local(4) ? [2400, 3000] : t >= local(18) && t < local(18, 30) ? [-600, 0] : [0, 600];
  const s = emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000);
  return { ...s, connected: true, lastUpdated: t, power: { ...s.power, solar: 0, solarNative: 0, home: 600, grid, battery } };
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('a day priced to the interval, across a restart mid-interval', () => {
  it('loses nothing: the bill, the daily row and the savings equal the hand-worked figures', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'interval-restart-'));
    dirs.push(dataDir);
    const clock = createManualClock(day);
    const boot = async () => {
      const history = createHistory({ dataDir, clock, logger: silentLogger, retentionMs: () => 30 * 86_400_000 });
      history.start();
      const state = new LiveStateStore(emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000));
      const ctx: FeatureContext = {
        clock, logger: silentLogger, settings: () => settings, state, dataDir, historyFile: history.file, gate: async () => {},
        outbound: createOutbound({ transport: () => Promise.reject(new Error('offline')) }),
        prices: () => book,
      };
      const features = [createCostFeature(ctx), createDailyFeature(ctx), createSavingsFeature(ctx)];
      features.forEach((f) => f.start?.());
      await replayPolls(history.file, features.flatMap((f) => f.replay?.(clock.now()) ?? []), clock.now(), { logger: silentLogger });
      const app = Fastify();
      features.forEach((f) => f.routes?.(app));
      const stop = async () => {
        await app.close();
        features.forEach((f) => f.stop?.());
        history.stop();
      };
      return { history, features, app, state, stop };
    };
    type Svc = Awaited<ReturnType<typeof boot>>;
    const poll = (svc: Svc, t: number) => {
      clock.set(t);
      const s = stateAt(t);
      for (const f of svc.features) f.onPoll?.(s, t);
      svc.history.append(sampleFromState(s, t));
      svc.state.set(s);
    };
    const importCost = (svc: Svc) => (svc.features[0]!.snapshot?.({} as never) as { tariff: { today: { importCost: number } } }).tariff.today.importCost;

    let svc = await boot();
    let t = day;
    // Polls every 10 s up to 18:12:30, inside the spike interval 18:10-18:15; the service stops there.
    for (; t <= local(18, 12, 30); t += 10_000) poll(svc, t);
    const before = importCost(svc);
    await svc.stop();
    // It is back 10 s later: the history gives today's polls back, and the last one (18:12:30) holds
    // until the first new one at 18:12:40, as it would have without the restart.
    t = local(18, 12, 40);
    clock.set(t);
    svc = await boot();
    expect(importCost(svc)).toBe(before);
    for (; t <= local(23, 59, 50); t += 10_000) poll(svc, t);

    // Today's bill, line by line, before midnight.
    const lines = (await svc.app.inject({ method: 'GET', url: '/api/cost/intervals' })).json() as {
      source: string; currency: string; fallbackKwh: number;
      intervals: Array<{ start: string; importKwh: number; importCost: number; spike: boolean; importPerKwh: number }>;
    };
    expect(lines).toMatchObject({ source: 'amber', currency: 'AUD', fallbackKwh: 0 });
    expect(lines.intervals).toHaveLength(288);
    const at = (hh: number, mm: number) => lines.intervals.find((l) => l.start === new Date(local(hh, mm)).toISOString())!;
    // 03:05-03:10: 3 kW for 5 minutes = 0.25 kWh at $0.10 = $0.025.
    expect(at(3, 5)).toMatchObject({ importKwh: 0.25, importCost: 0.025, importPerKwh: 0.1 });
    // 18:10-18:15, the interval the restart fell in: the battery covered the house, nothing bought.
    expect(at(18, 10)).toMatchObject({ spike: true, importKwh: 0, importCost: 0 });
    // 12:00-12:05: 0.6 kW for 5 minutes = 0.05 kWh at $0.30 = $0.015.
    expect(at(12, 0)).toMatchObject({ importKwh: 0.05, importCost: 0.015 });

    // Midnight closes the day.
    for (; t <= local(24, 0, 10); t += 10_000) poll(svc, t);
    const daily = (await svc.app.inject({ method: 'GET', url: '/api/history/daily?from=2026-01-14&to=2026-01-14' })).json() as { days: Array<Record<string, unknown>> };
    // Import: 03:00-04:00 3 kWh at $0.10 = $0.30; 18:00-18:30 none; the other 22.5 h 13.5 kWh at $0.30
    // = $4.05. Cost $4.35; paid with the $1 supply charge $5.35.
    expect(daily.days[0]).toMatchObject({ date: '2026-01-14', importKwh: 16.5, importCost: 4.35, feedIn: 0, supply: 1, net: -5.35, homeKwh: 14.4, complete: true });

    const savings = (await svc.app.inject({ method: 'GET', url: '/api/savings?from=2026-01-14&to=2026-01-14&by=day' })).json() as { periods: Array<Record<string, unknown>> };
    // Without the battery: 03:00-04:00 only the house's 0.6 kWh at $0.10 = $0.06; 18:00-18:30 the
    // house's 0.3 kWh at the $3 spike = $0.90; the rest $4.05: $5.01, paid $6.01 with supply.
    // The battery saved $6.01 - $5.35 = $0.66: $0.90 at the spike less the $0.24 its 2.4 kWh charge
    // cost from the grid ($0.30 - $0.06). The charge is not home use: the house used 14.4 kWh.
    expect(savings.periods[0]).toMatchObject({ period: '2026-01-14', paid: 5.35, paidWithoutBattery: 6.01, savedByBattery: 0.66, homeKwh: 14.4, batteryChargeKwh: 2.4 });
    await svc.stop();
  });
});
