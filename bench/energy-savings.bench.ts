/**
 * Savings report: a year of daily savings rows (365 days in `savings.db`) computed into the report.
 *  1. `savingsReport` over the year, by day, month and year, against a bare sum of one column over
 *     the same rows (baseline, same run). Target (issue 26): < 100 ms.
 *  2. `GET /api/savings?by=day` for the year through the feature's route (read from SQLite, the
 *     report, JSON over Fastify's inject), against reading the same rows from the store only.
 * Medians of 7 rounds after one warm-up request. The figures are inflated on a busy machine: the
 * summary line prints the load average.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { createManualClock } from '../main/core/clock.js';
import { silentLogger } from '../main/core/logger.js';
import { createOutbound } from '../main/core/outbound.js';
import { createSavingsFeature } from '../main/energy/savings/feature.js';
import type { SavingsDay } from '../main/energy/savings/ledger.js';
import { savingsReport } from '../main/energy/savings/report.js';
import { SavingsStore } from '../main/energy/savings/store.js';
import { emptyLiveState, LiveStateStore } from '../main/energy/live-state.js';
import { energySettingsSchema } from '../main/energy/settings/energy-settings.js';
import { figure, median } from './report.js';

const ROUNDS = 7;
const settings = energySettingsSchema.parse({ general: { timezone: 'Australia/Sydney', currency: 'AUD' }, tariff: { importRate: 0.3, feedInRate: 0.08, dailySupplyCharge: 1.1 } });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-savings-'));
const file = path.join(dataDir, 'energy', 'savings.db');
fs.mkdirSync(path.dirname(file), { recursive: true });

const days: SavingsDay[] = [];
for (let i = 0; i < 365; i++) {
  const date = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const season = 1 + 0.5 * Math.cos((2 * Math.PI * i) / 365);
  days.push({
    date,
    solarKwh: 20 * season,
    homeKwh: 18,
    importKwh: 6 / season,
    exportKwh: 8 * season,
    batteryChargeKwh: 9,
    batteryDischargeKwh: 8.5,
    importKwhWithoutBattery: 12,
    exportKwhWithoutBattery: 16,
    paid: 1.1 + 1.8 / season - 0.64 * season,
    paidWithoutBattery: 4.5,
    paidWithoutSolar: 6.5,
    currency: 'AUD',
    coveredMs: 86_400_000,
  });
}
const store = new SavingsStore(file);
for (const d of days) store.put(d);
store.close();

// 1. The report in memory.
{
  const input = days.map((d) => ({ ...d, complete: true }));
  const reportMs: number[] = [];
  const bareMs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let t0 = performance.now();
    for (const by of ['day', 'month', 'year'] as const) if (savingsReport(input, by).periods.length === 0) throw new Error('empty report');
    reportMs.push(performance.now() - t0);
    t0 = performance.now();
    let s = 0;
    for (let k = 0; k < 3; k++) for (const d of input) s += d.paid ?? 0;
    bareMs.push(performance.now() - t0);
    if (!Number.isFinite(s)) throw new Error('bad baseline');
  }
  figure('savingsReport: a year of daily totals into the report by day, month and year', median(reportMs), 'ms', { max: 100 });
  figure('baseline: summing one column of the same days three times', median(bareMs), 'ms');
}

// 2. The route, from SQLite to JSON.
{
  const clock = createManualClock(Date.UTC(2026, 0, 1, 2));
  const state = new LiveStateStore(emptyLiveState({ host: '127.0.0.1', port: 502 }, 5000));
  const feature = createSavingsFeature({ clock, logger: silentLogger, settings: () => settings, state, outbound: createOutbound({ transport: () => Promise.reject(new Error('offline')) }), dataDir, historyFile: path.join(dataDir, 'energy', 'history.db'), gate: async () => {} });
  feature.start?.();
  const app = Fastify();
  feature.routes?.(app);
  await app.ready();
  const reader = new SavingsStore(file);
  // One warm-up request (first use of the zone's calendar, Fastify's serializer), not counted.
  await app.inject({ method: 'GET', url: '/api/savings?by=day&from=2024-01-01&to=2024-12-31' });
  const routeMs: number[] = [];
  const readMs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: '/api/savings?by=day&from=2025-01-01&to=2025-12-31' });
    routeMs.push(performance.now() - t0);
    if (res.statusCode !== 200 || (res.json() as { periods: unknown[] }).periods.length !== 365) throw new Error(`bad answer ${res.statusCode}`);
    t0 = performance.now();
    if (reader.range('2025-01-01', '2025-12-31').length !== 365) throw new Error('bad read');
    readMs.push(performance.now() - t0);
  }
  figure('GET /api/savings?by=day over a year (365 days), whole request', median(routeMs), 'ms');
  figure('baseline: reading the same 365 rows from savings.db', median(readMs), 'ms');
  reader.close();
  await app.close();
  feature.stop?.();
}
fs.rmSync(dataDir, { recursive: true, force: true });
