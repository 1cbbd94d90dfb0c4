import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { FeatureContext } from '../feature.js';
import { createHistory, sampleFromState } from '../history/index.js';
import { replayPolls } from '../history/replay.js';
import { emptyLiveState, LiveStateStore, type LiveState } from '../live-state.js';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { createCostFeature } from '../cost/feature.js';
import { localMinute, startOfLocalDay } from '../tariff/local-time.js';
import { createDailyFeature } from './feature.js';
import { createOutbound } from '../../core/outbound.js';

const tz = 'Europe/Berlin';
const settings = energySettingsSchema.parse({ general: { timezone: tz, currency: 'EUR' }, tariff: { importRate: 0.3, feedInRate: 0.1, dailySupplyCharge: 1 } });
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Local hour of day (wall clock) of an instant in Berlin, from the zone source the code uses (the system tz database), not ICU's copy (issue 39). */
const hourOf = (t: number) => Math.floor(localMinute(t, tz).minute / 60);

/** The synthetic plant: 500 W home all day, 2 kW solar 09:00-15:00 local, no battery, grid balances. */
function stateAt(t: number): LiveState {
  const solar = hourOf(t) >= 9 && hourOf(t) < 15 ? 2000 : 0;
  const home = 500;
  const s = emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000);
  return { ...s, connected: true, lastUpdated: t, power: { ...s.power, solar, solarNative: solar, home, grid: home - solar, battery: 0 } };
}

describe('daily totals', () => {
  it('equal the integral of the samples for a synthetic week (DST change included), across a restart mid-day', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'daily-test-'));
    dirs.push(dataDir);
    const weekStart = startOfLocalDay('2026-03-25', tz);
    const weekEnd = startOfLocalDay('2026-04-01', tz);
    const restartAt = startOfLocalDay('2026-03-28', tz) + 13 * 3_600_000;
    const clock = createManualClock(weekStart);

    const boot = async () => {
      const history = createHistory({ dataDir, clock, logger: silentLogger, retentionMs: () => 30 * 86_400_000 });
      history.start();
      const state = new LiveStateStore(emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000));
      const ctx: FeatureContext = { clock, logger: silentLogger, settings: () => settings, state, outbound: createOutbound({ transport: () => Promise.reject(new Error('offline')) }), dataDir, historyFile: history.file, gate: async () => {} };
      const daily = createDailyFeature(ctx);
      const tariff = createCostFeature(ctx);
      daily.start?.();
      tariff.start?.();
      // What the service does after its port opens: today's polls (and missing days) read back.
      await replayPolls(history.file, [daily, tariff].flatMap((f) => f.replay?.(clock.now()) ?? []), clock.now(), { logger: silentLogger });
      const app = Fastify();
      daily.routes?.(app);
      return { history, daily, tariff, app, state };
    };
    const poll = (svc: Awaited<ReturnType<typeof boot>>, t: number) => {
      clock.set(t);
      const s = stateAt(t);
      svc.daily.onPoll?.(s, t);
      svc.tariff.onPoll?.(s, t);
      svc.history.append(sampleFromState(s, t));
      svc.state.set(s);
    };

    let svc = await boot();
    let t = weekStart;
    for (; t < restartAt; t += 60_000) poll(svc, t);
    const before = { ...svc.tariff };
    const snapBefore = (before.snapshot?.({} as never) ?? {}) as { tariff?: { today: { importCost: number } } };
    await svc.app.close();
    svc.daily.stop?.();
    svc.history.stop();

    t += 5 * 60_000; // five minutes down
    clock.set(t);
    svc = await boot();
    // Straight after the restart, today's cost is back (rebuilt from history), not zero.
    const snapAfter = (svc.tariff.snapshot?.({} as never) ?? {}) as { tariff?: { today: { importCost: number } } };
    expect(snapAfter.tariff!.today.importCost).toBe(snapBefore.tariff!.today.importCost);
    expect(snapAfter.tariff!.today.importCost).toBeGreaterThan(0);
    for (; t <= weekEnd; t += 60_000) poll(svc, t);

    const res = await svc.app.inject({ method: 'GET', url: '/api/history/daily?from=2026-03-25&to=2026-03-31' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { currency: string; days: Array<Record<string, number | string | boolean>> };
    expect(body.currency).toBe('EUR');
    expect(body.days.map((d) => d.date)).toEqual(['2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31']);
    for (const d of body.days) {
      const hours = d.date === '2026-03-29' ? 23 : 24; // clocks go forward on 29 March in Berlin
      const importKwh = (hours - 6) * 0.5;
      expect(d).toMatchObject({
        solarKwh: 12,
        homeKwh: hours * 0.5,
        importKwh,
        exportKwh: 9,
        batteryChargeKwh: 0,
        batteryDischargeKwh: 0,
        importCost: Math.round(importKwh * 0.3 * 1e4) / 1e4,
        feedIn: 0.9,
        supply: 1,
        net: Math.round((0.9 - importKwh * 0.3 - 1) * 1e4) / 1e4,
        complete: true,
      });
    }

    const csv = await svc.app.inject({ method: 'GET', url: '/api/history/daily?from=2026-03-29&to=2026-03-29&format=csv' });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const [head, row] = csv.body.trim().split('\n');
    expect(head!.split(',').slice(0, 4)).toEqual(['date', 'solarKwh', 'homeKwh', 'importKwh']);
    expect(row!.split(',').slice(0, 4)).toEqual(['2026-03-29', '12', '11.5', '8.5']);

    const bad = await svc.app.inject({ method: 'GET', url: '/api/history/daily?from=2026-04-02&to=2026-03-01' });
    expect(bad.statusCode).toBe(400);
    await svc.app.close();
    svc.daily.stop?.();
    svc.history.stop();
  });

  it('days missing from the table are rebuilt from the raw history on start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'daily-test-'));
    dirs.push(dataDir);
    const from = startOfLocalDay('2026-06-01', tz);
    const clock = createManualClock(from);
    const history = createHistory({ dataDir, clock, logger: silentLogger, retentionMs: () => 30 * 86_400_000 });
    history.start();
    // Two days of polls recorded while the daily feature did not exist.
    for (let t = from; t < from + 2 * 86_400_000; t += 60_000) {
      clock.set(t);
      history.append(sampleFromState(stateAt(t), t));
    }
    const state = new LiveStateStore(emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000));
    const daily = createDailyFeature({ clock, logger: silentLogger, settings: () => settings, state, outbound: createOutbound({ transport: () => Promise.reject(new Error('x')) }), dataDir, historyFile: history.file, gate: async () => {} });
    daily.start?.();
    await replayPolls(history.file, [daily.replay!(clock.now())!], clock.now(), { logger: silentLogger });
    const app = Fastify();
    daily.routes?.(app);
    const body = (await app.inject({ method: 'GET', url: '/api/history/daily?from=2026-06-01&to=2026-06-01' })).json() as { days: Array<{ importKwh: number; solarKwh: number }> };
    expect(body.days).toHaveLength(1);
    expect(body.days[0]).toMatchObject({ solarKwh: 12, importKwh: 9 });
    await app.close();
    daily.stop?.();
    history.stop();
  });
});
