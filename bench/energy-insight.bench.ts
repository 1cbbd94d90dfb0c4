/**
 * Energy insight:
 *  1. Ledger integration (tariff with three ToU windows + super export + zero draw) of a week of
 *     1 Hz polls, against a bare sum of power × time over the same samples (baseline, same run).
 *  2. Start-up rebuild of the daily totals and today's cost from a week of 5 s history on disk,
 *     against only reading the same rows back (baseline). Target: rebuild < 3 s.
 * Medians of 3 runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../main/core/clock.js';
import { silentLogger } from '../main/core/logger.js';
import { createDailyFeature } from '../main/energy/daily/feature.js';
import { DurableStore } from '../main/energy/history/durable-store.js';
import { readPowerSamples } from '../main/energy/history/sample-reader.js';
import { replayPolls } from '../main/energy/history/replay.js';
import { emptyLiveState, LiveStateStore } from '../main/energy/live-state.js';
import { energySettingsSchema } from '../main/energy/settings/energy-settings.js';
import { createCostFeature } from '../main/energy/cost/feature.js';
import { DayLedger, type PowerSample } from '../main/energy/tariff/ledger.js';
import { figure } from './report.js';
import { createOutbound } from '../main/core/outbound.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const settings = energySettingsSchema.parse({
  general: { timezone: 'Australia/Sydney' },
  tariff: {
    importRate: 0.3,
    feedInRate: 0.08,
    dailySupplyCharge: 1.1,
    windows: [
      { name: 'Peak', start: '15:00', end: '21:00', importRate: 0.45 },
      { name: 'Shoulder', start: '07:00', end: '15:00', importRate: 0.25, days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
      { name: 'Night', start: '22:00', end: '07:00', importRate: 0.15 },
    ],
    superExport: { enabled: true, rate: 0.3, start: '18:00', end: '20:00', capKwh: 10 },
    zeroDraw: { enabled: true, credit: 1, start: '16:00', end: '21:00', toleranceKwh: 0.05 },
  },
});
const now = Date.now();
const sample = (t: number): PowerSample => {
  const h = (t / 3_600_000) % 24;
  const solar = Math.max(0, 6000 * Math.sin((Math.PI * (h - 6)) / 13));
  const home = 700 + 300 * Math.sin(t / 600_000);
  return { t, solar, home, grid: home - solar, battery: 0 };
};

// 1. Ledger vs bare integral, a week at 1 Hz.
{
  const week: PowerSample[] = [];
  for (let t = now - 7 * 86_400_000; t < now; t += 1000) week.push(sample(t));
  const ledgerMs: number[] = [];
  const bareMs: number[] = [];
  for (let run = 0; run < 3; run++) {
    let t0 = performance.now();
    const l = new DayLedger(() => ({ tariff: settings.tariff, timeZone: settings.general.timezone }));
    for (const s of week) l.feed(s);
    ledgerMs.push(performance.now() - t0);
    t0 = performance.now();
    let kwh = 0;
    for (let i = 1; i < week.length; i++) kwh += ((week[i - 1]!.grid ?? 0) / 1000) * ((week[i]!.t - week[i - 1]!.t) / 3_600_000);
    bareMs.push(performance.now() - t0);
    if (!Number.isFinite(kwh)) throw new Error('bad baseline');
  }
  figure(`ledger: a week of 1 Hz polls (${week.length} samples)`, median(ledgerMs), 'ms');
  figure('baseline: bare power × time sum over the same samples', median(bareMs), 'ms');
  figure('ledger cost per poll', (median(ledgerMs) / week.length) * 1000, 'µs');
  figure('ledger / bare sum (medians)', median(ledgerMs) / median(bareMs), 'x');
}

// 2. Start-up rebuild from a week of 5 s history.
{
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-insight-'));
  const file = path.join(dataDir, 'energy', 'history.db');
  const store = new DurableStore(file);
  const rows: Array<Record<string, number | null>> = [];
  for (let t = now - 7 * 86_400_000; t < now; t += 5000) {
    const s = sample(t);
    rows.push({ t, solar: s.solar, solarNative: s.solar, solarThirdParty: 0, home: s.home, homeGeneral: null, smartPort: null, grid: s.grid, battery: 0, soc: 50, outdoorTemp: null });
  }
  store.insertMany(rows as never);
  store.close();
  const readMs: number[] = [];
  const rebuildMs: number[] = [];
  for (let run = 0; run < 3; run++) {
    let t0 = performance.now();
    readPowerSamples(file, 0, now + 1, () => {});
    readMs.push(performance.now() - t0);
    fs.rmSync(path.join(dataDir, 'energy', 'daily.db'), { force: true });
    const ctx = { clock: systemClock, logger: silentLogger, settings: () => settings, state: new LiveStateStore(emptyLiveState({ host: '', port: 502 }, 5000)), outbound: createOutbound({ transport: () => Promise.reject(new Error('offline')) }), dataDir, historyFile: file, gate: async () => {} };
    t0 = performance.now();
    const daily = createDailyFeature(ctx);
    const tariff = createCostFeature(ctx);
    daily.start?.();
    tariff.start?.();
    // As the service does once its port is open: one batched read of the stored polls for both.
    await replayPolls(file, [daily, tariff].flatMap((f) => f.replay?.(now) ?? []), now, { logger: silentLogger });
    rebuildMs.push(performance.now() - t0);
    daily.stop?.();
  }
  figure(`baseline: read a week of 5 s history back (${rows.length} rows)`, median(readMs), 'ms');
  figure('rebuild daily totals + today after a start (read back in batches)', median(rebuildMs), 'ms', { max: 3000 });
  figure('rebuild / reading the week back (medians)', median(rebuildMs) / median(readMs), 'x');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
