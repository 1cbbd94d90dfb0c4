import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createOutbound } from '../../core/outbound.js';
import { createHistory, sampleFromState } from '../history/index.js';
import { replayPolls } from '../history/replay.js';
import { emptyLiveState, LiveStateStore, type LiveState } from '../live-state.js';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { localMinute, startOfLocalDay } from '../tariff/local-time.js';
import { startEnergyHarness, waitForState } from '../testing/harness.js';
import type { FeatureContext } from '../feature.js';
import { createSavingsFeature } from './feature.js';
import Fastify from 'fastify';

const tz = 'Europe/Berlin';
// The household and tariff of savings.test.ts (figures worked by hand there): paid 1.69 a day,
// 4.63 without the battery (4.51 on the 23-hour DST day), 7.03 without solar or battery (6.91).
const settings = energySettingsSchema.parse({
  general: { timezone: tz, currency: 'EUR' },
  tariff: { importRate: 0.3, feedInRate: 0.1, dailySupplyCharge: 1, windows: [{ name: 'Peak', start: '17:00', end: '21:00', importRate: 0.5 }] },
});
// Through the zone source the code uses (the system tz database), not ICU's copy of it (issue 39).
const hourOf = (t: number) => Math.floor(localMinute(t, tz).minute / 60);
function stateAt(t: number): LiveState {
  const h = hourOf(t);
  const [home, solar, battery, grid] = h < 7 ? [400, 0, -400, 0] : h < 10 ? [500, 0, 0, 500] : h < 16 ? [500, 3000, 1500, -1000] : h < 17 ? [1000, 0, 0, 1000] : h < 21 ? [1500, 0, -1500, 0] : [600, 0, 0, 600];
  const s = emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000);
  return { ...s, connected: true, lastUpdated: t, power: { ...s.power, solar, solarNative: solar, home, grid, battery } };
}

const dirs: string[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

describe('GET /api/savings', () => {
  it('days recorded before the feature existed are rebuilt from history; today is running; the snapshot carries today', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'savings-test-'));
    dirs.push(dataDir);
    const from = startOfLocalDay('2026-03-28', tz);
    const now = startOfLocalDay('2026-03-30', tz) + 12 * 3_600_000; // 12:00 on the Monday
    const clock = createManualClock(from);
    const history = createHistory({ dataDir, clock, logger: silentLogger, retentionMs: () => 30 * 86_400_000 });
    history.start();
    cleanups.push(() => history.stop());
    for (let t = from; t <= now; t += 60_000) {
      clock.set(t);
      history.append(sampleFromState(stateAt(t), t));
    }
    const state = new LiveStateStore(emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000));
    const ctx: FeatureContext = { clock, logger: silentLogger, settings: () => settings, state, outbound: createOutbound({ transport: () => Promise.reject(new Error('offline')) }), dataDir, historyFile: history.file, gate: async () => {} };
    const savings = createSavingsFeature(ctx);
    savings.start?.();
    cleanups.push(() => savings.stop?.());
    await replayPolls(history.file, [savings.replay!(clock.now())!], clock.now(), { logger: silentLogger });
    const app = Fastify();
    savings.routes?.(app);
    cleanups.push(() => app.close());

    const res = await app.inject({ method: 'GET', url: '/api/savings?by=day&from=2026-03-28&to=2026-03-30' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ from: '2026-03-28', to: '2026-03-30', by: 'day', timezone: tz });
    expect(body.periods.map((p: { period: string; paid: number; paidWithoutBattery: number; paidWithoutSolar: number; completeDays: number }) => [p.period, p.paid, p.paidWithoutBattery, p.paidWithoutSolar, p.completeDays])).toEqual([
      ['2026-03-28', 1.69, 4.63, 7.03, 1],
      ['2026-03-29', 1.69, 4.51, 6.91, 1],
      // Today until 12:00: import 07–10 1.5 kWh (0.45), export 10–12 2 kWh (0.20), supply 1 → 1.25;
      // without battery 0.84 + 0.45 − 5 kWh×0.10 + 1 = 1.79; without solar 0.84 + 0.45 + 1 kWh×0.30 + 1 = 2.59.
      ['2026-03-30', 1.25, 1.79, 2.59, 0],
    ]);

    // The hook returns its block of the snapshot (it never writes into one).
    const snap = (savings.snapshot?.({} as never) ?? {}) as { savings?: { today: Record<string, unknown> } };
    expect(snap.savings?.today).toMatchObject({ date: '2026-03-30', currency: 'EUR', paid: 1.25, savedByBattery: 0.54, savedBySolarAndBattery: 1.34 });

    const csv = await app.inject({ method: 'GET', url: '/api/savings?by=month&from=2026-03-01&to=2026-03-31&format=csv' });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('energy-savings-by-month-2026-03-01-to-2026-03-31.csv');
    const [, row] = csv.body.trim().split('\n');
    // 1.69+1.69+1.25; 4.63+4.51+1.79; 7.03+6.91+2.59
    expect(row!.split(',').slice(13, 19)).toEqual(['4.63', '10.93', '16.53', '6.3', '11.9', 'EUR']);
  });

  it('bad queries are a 400 naming the field; no range over ten years', async () => {
    const h = await startEnergyHarness();
    cleanups.push(() => h.stop());
    await waitForState(h.service, (s) => s.connected);
    for (const [url, field] of [
      ['/api/savings?by=week', 'by'],
      ['/api/savings?from=2026-02-30', 'from'],
      ['/api/savings?to=yesterday', 'to'],
      ['/api/savings?format=xml', 'format'],
      ['/api/savings?from=2026-04-02&to=2026-03-01', 'from'],
      ['/api/savings?from=2000-01-01&to=2026-03-01', 'from'],
      ['/api/savings?colour=red', 'query'],
    ] as const) {
      const res = await h.service.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      const err = res.json().error;
      expect(err.code, url).toBe('invalid');
      if (field !== 'query') expect(err.field, url).toBe(field);
      expect(JSON.stringify(err)).not.toMatch(/at .*\.ts/);
    }
    const ok = await h.service.app.inject({ method: 'GET', url: '/api/savings?by=year' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().periods.length).toBeGreaterThanOrEqual(1);
  });
});
