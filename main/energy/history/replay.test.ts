import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../core/logger.js';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { startEnergyHarness } from '../testing/harness.js';
import { DayLedger, type PowerSample } from '../tariff/ledger.js';
import { localMinute, startOfLocalDay } from '../tariff/local-time.js';
import { DurableStore } from './durable-store.js';
import { LiveFeed, replayPolls, type HistoryReplay } from './replay.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

const HOUR = 3_600_000;
const dirs: string[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

/** A history database in a fresh data folder with 1 s polls over [from, to]: 500 W home, all from the grid. */
function historyWith(from: number, to: number): { dataDir: string; file: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-test-'));
  dirs.push(dataDir);
  fs.mkdirSync(path.join(dataDir, 'energy'));
  const file = path.join(dataDir, 'energy', 'history.db');
  const store = new DurableStore(file);
  const sample = (t: number): HistorySample => {
    const s = { t } as HistorySample;
    for (const f of SAMPLE_FIELDS) s[f] = 0;
    return { ...s, home: 500, grid: 500, soc: 50 };
  };
  for (let lo = from; lo <= to; lo += 50_000_000) {
    const batch: HistorySample[] = [];
    for (let t = lo; t <= Math.min(to, lo + 50_000_000 - 1000); t += 1000) batch.push(sample(t));
    store.insertMany(batch);
  }
  store.close();
  return { dataDir, file };
}

/** A replay that records what it gets. */
function recorder(from: number) {
  const got: number[] = [];
  let done: number | null = null;
  const replay: HistoryReplay = { from, feed: (p) => got.push(p.t), done: (n) => (done = n) };
  return { replay, got, done: () => done };
}

describe('reading stored polls back after a start', () => {
  it('reads once for every feature: each gets its polls from its own start up to the end, in order, then done with the count', async () => {
    const t0 = Date.UTC(2026, 5, 1);
    const { file } = historyWith(t0, t0 + 99_000); // 100 polls
    const all = recorder(t0);
    const late = recorder(t0 + 60_000);
    await replayPolls(file, [all.replay, late.replay], t0 + 89_000, { logger: silentLogger, batch: 7 });
    expect(all.got).toEqual(Array.from({ length: 90 }, (_, i) => t0 + i * 1000));
    expect(late.got).toEqual(Array.from({ length: 30 }, (_, i) => t0 + 60_000 + i * 1000));
    expect([all.done(), late.done()]).toEqual([90, 30]);
  });

  it('lets the event loop turn between batches, so requests and polls are served while it reads', async () => {
    const t0 = Date.UTC(2026, 5, 1);
    const { file } = historyWith(t0, t0 + 999_000); // 1,000 polls
    const r = recorder(t0);
    const turns: number[] = [];
    let running = true;
    const tick = () => {
      turns.push(r.got.length);
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    await replayPolls(file, [r.replay], t0 + 999_000, { logger: silentLogger, batch: 100 });
    running = false;
    expect(r.done()).toBe(1000);
    // Other work ran at several points in the middle of the read, not only before or after it.
    expect(new Set(turns.filter((n) => n > 0 && n < 1000)).size).toBeGreaterThanOrEqual(5);
  });

  it('a stop ends the read without calling done; a missing history ends every replay with nothing', async () => {
    const t0 = Date.UTC(2026, 5, 1);
    const { file, dataDir } = historyWith(t0, t0 + 999_000);
    const stop = new AbortController();
    const r = recorder(t0);
    const reading = replayPolls(file, [r.replay], t0 + 999_000, { logger: silentLogger, batch: 100, signal: stop.signal });
    stop.abort();
    await reading;
    expect(r.got.length).toBeLessThan(1000);
    expect(r.done()).toBeNull();

    const none = recorder(t0);
    await replayPolls(path.join(dataDir, 'energy', 'missing.db'), [none.replay], t0 + 999_000, { logger: silentLogger });
    expect([none.got, none.done()]).toEqual([[], 0]);
  });

  it('holds live polls while the read-back runs and feeds them after it, into the ledger current then', () => {
    const { tariff } = energySettingsSchema.parse({ general: { timezone: 'UTC' } });
    const config = () => ({ tariff, timeZone: 'UTC' });
    let ledger = new DayLedger(config);
    const feed = new LiveFeed(() => ledger);
    // Polls a minute apart at a steady 1 kW home load: each minute is 1/60 kWh.
    const at = (m: number): PowerSample => ({ t: Date.UTC(2026, 5, 1, 0, m), solar: 0, home: 1000, grid: 1000, battery: 0 });
    const kwh = (minutes: number) => minutes / 60;
    const first = ledger;
    const replay = feed.replay(first, at(0).t);
    // A live poll at 00:02 comes while the stored ones (00:00, 00:01) are being read back.
    feed.live(at(2));
    expect(first.current()?.homeKwh ?? 0).toBe(0);
    replay.feed(at(0));
    replay.feed(at(1));
    replay.done(2);
    expect(first.current()!.homeKwh).toBeCloseTo(kwh(2), 9); // 00:00 → 00:02, none of it lost
    // After the read-back, live polls go straight in; held ones follow a ledger replaced meanwhile.
    feed.live(at(3));
    expect(first.current()!.homeKwh).toBeCloseTo(kwh(3), 9);
    const second = feed.replay(first, at(0).t);
    ledger = new DayLedger(config);
    ledger.feed(at(3));
    feed.live(at(4));
    second.done(0);
    expect(ledger.current()!.homeKwh).toBeCloseTo(kwh(1), 9);
  });
});

describe('the energy service after a restart with two days of 1 s history', () => {
  it('answers before the read-back is done, then has every day and today whole, with the live polls that came meanwhile', async () => {
    const now = Date.now();
    const { dataDir } = historyWith(now - 50 * HOUR, now - 1000);
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const logger = createLogger({ level: 'info', format: 'json', destination });
    // The live polls hold about the stored 500 W whatever the hour: no sun, no smart loads, no
    // evening peak (the plant's clock stays at 03:00 UTC), 375–625 W of house load.
    const sim = { now: () => Date.UTC(2026, 0, 1, 3), timeZone: 'UTC', pvPeakW: 0, thirdPartyPeakW: 0, smartLoads: [], baseLoadW: 375 };
    const h = await startEnergyHarness({ sim, deps: { logger }, dataDir, env: { POLL_INTERVAL_MS: '1000' } });
    cleanups.push(() => h.stop());
    const rebuilt = () => lines.some((l) => l.includes('daily totals rebuilt from history'));

    const state = await fetch(`${h.service.url}/api/state`);
    expect(state.status).toBe(200);
    expect(rebuilt()).toBe(false);

    const deadline = Date.now() + 60_000;
    while (!rebuilt() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(rebuilt()).toBe(true);
    const tz = h.service.settings.get().general.timezone;
    const today = localMinute(Date.now(), tz).date;
    const from = localMinute(now - 100 * HOUR, tz).date;
    const res = await fetch(`${h.service.url}/api/history/daily?from=${from}&to=${today}`);
    expect(res.status).toBe(200);
    const { days } = (await res.json()) as { days: Array<{ date: string; homeKwh: number; coveredHours: number; complete: boolean }> };
    // Every day of the history is there, at the 500 W the polls held (12 kWh for a whole day).
    expect(days.length).toBeGreaterThanOrEqual(3);
    for (const d of days) expect(d.homeKwh).toBeCloseTo(0.5 * d.coveredHours, 2);
    expect(days.filter((d) => d.complete && d.coveredHours >= 23)).not.toHaveLength(0);
    // Today runs from its first stored poll to the latest live one: the live polls that came during
    // the read-back were held, not fed first (which would have made the ledger skip the stored ones).
    const todayRow = days.find((d) => d.date === today)!;
    const since = Math.max(startOfLocalDay(today, tz), now - 50 * HOUR);
    expect(todayRow.coveredHours).toBeGreaterThanOrEqual((now - since) / HOUR - 0.01);
  }, 90_000);
});
