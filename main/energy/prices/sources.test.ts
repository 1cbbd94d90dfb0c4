import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { startOfLocalDay } from '../tariff/local-time.js';
import { fetchAmberPrices, fetchAmberSites } from './amber.js';
import { startAmberSimulator, type AmberSimulator } from './amber-simulator.js';
import { getPriceJson, PriceSourceError } from './fetch-json.js';
import { fetchOctopusRates, octopusIntervals } from './octopus.js';
import { startOctopusSimulator, type OctopusSimulator } from './octopus-simulator.js';
import { priceCacheFile } from './price-cache.js';
import { createPriceSource } from './price-source.js';
import { pricesSettings, type PricesSettings } from './settings.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** 2026-11-30 in Sydney (summer time, UTC+11) and London (GMT). */
const SYD_DAY = startOfLocalDay('2026-11-30', 'Australia/Sydney');
const LON_DAY = startOfLocalDay('2026-11-30', 'Europe/London');

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function amberAt(t: number, opts: { estimateOffsetCents?: number; intervalMinutes?: 5 | 30 } = {}) {
  const clock = createManualClock(t);
  const sim = await startAmberSimulator({ now: clock.now, ...opts });
  closers.push(() => sim.close());
  return { clock, sim };
}

async function octopusAt(t: number, publishAtMinute?: number) {
  const clock = createManualClock(t);
  const sim = await startOctopusSimulator({ now: clock.now, publishAtMinute });
  closers.push(() => sim.close());
  return { clock, sim };
}

const amberSettings = (sim: AmberSimulator): PricesSettings => pricesSettings.parse({ source: 'amber', amber: { token: sim.token, siteId: sim.siteId, baseUrl: sim.url } });
const octopusSettings = (sim: OctopusSimulator, withExport = true): PricesSettings =>
  pricesSettings.parse({ source: 'octopus', octopus: { importProduct: sim.product, importTariff: sim.importTariff, ...(withExport ? { exportProduct: sim.exportProduct, exportTariff: sim.exportTariff } : {}), baseUrl: sim.url } });

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prices-test-'));
  closers.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('Amber client against the simulator (real HTTP)', () => {
  it('lists the account sites and reads the day in the household signs: dollars, feed-in turned around', async () => {
    const { sim } = await amberAt(SYD_DAY + 12 * HOUR + 2 * MIN);
    const sites = await fetchAmberSites(fetch, sim.url, sim.token);
    expect(sites.map((s) => [s.id, s.status])).toEqual([
      [sim.siteId, 'active'],
      ['01J0SIMULATEDSITE0000000002', 'closed'],
    ]);
    const list = await fetchAmberPrices(fetch, sim.url, sim.token, sim.siteId, { previous: 144, next: 144, resolution: 5 });
    const at = (hhmm: string) => list.find((iv) => iv.start === SYD_DAY + Number(hhmm.slice(0, 2)) * HOUR + Number(hhmm.slice(3)) * MIN)!;
    // 12:00 local: Amber general −4 c (paid to consume), feedIn +2 c (exporting costs 2 c).
    expect(at('12:00')).toMatchObject({ end: SYD_DAY + 12 * HOUR + 5 * MIN, importPerKwh: -0.04, feedInPerKwh: -0.02, descriptor: 'negative', kind: 'current', spike: false });
    // 10:00: feedIn −3 c in Amber's sign pays the household 3 c.
    expect(at('10:00')).toMatchObject({ importPerKwh: 0.12, feedInPerKwh: 0.03, kind: 'actual', estimate: false });
    // 18:00–18:30: the spike, $3.00 a kWh, feed-in $2.80.
    expect(at('18:25')).toMatchObject({ importPerKwh: 3, feedInPerKwh: 2.8, descriptor: 'spike', spike: true, kind: 'forecast', estimate: true });
    expect(at('17:55')).toMatchObject({ importPerKwh: 0.6, spike: false });
    expect(list).toHaveLength(289);
  });

  it('a refused token, a 429, a 500, garbage, a huge answer and a cut connection each give a plain error', async () => {
    const { sim } = await amberAt(SYD_DAY + 9 * HOUR);
    const get = () => fetchAmberPrices(fetch, sim.url, sim.token, sim.siteId, { previous: 1, next: 1, resolution: 5 });
    await expect(fetchAmberSites(fetch, sim.url, 'wrong-token')).rejects.toThrow('Amber refused the API token (HTTP 401)');
    sim.fail(429);
    await expect(get()).rejects.toMatchObject({ status: 429, retryAfterMs: 120_000 });
    sim.fail(500);
    await expect(get()).rejects.toThrow('Amber answered HTTP 500');
    sim.fail('garbage');
    await expect(get()).rejects.toThrow("Amber's answer is not JSON");
    sim.fail('huge');
    await expect(get()).rejects.toThrow("Amber's answer is too large");
    sim.fail('down');
    await expect(get()).rejects.toThrow(/^Amber: no HTTP answer from 127\.0\.0\.1:\d+$/);
    sim.fail('silent');
    await expect(getPriceJson(fetch, `${sim.url}/sites`, 'Amber', { timeoutMs: 300 })).rejects.toBeInstanceOf(PriceSourceError);
  });
});

describe('Octopus client against the simulator (real HTTP)', () => {
  it('reads pence with VAT as pounds, follows the pages, and ranks the day', async () => {
    const { sim, clock } = await octopusAt(LON_DAY + 10 * HOUR);
    const from = LON_DAY;
    const to = LON_DAY + 24 * HOUR;
    const imports = await fetchOctopusRates(fetch, sim.url, sim.product, sim.importTariff, from, to, undefined, 10);
    expect(imports).toHaveLength(48);
    expect(sim.requests.filter((r) => r.path.includes(sim.importTariff))).toHaveLength(5);
    const exports = await fetchOctopusRates(fetch, sim.url, sim.exportProduct, sim.exportTariff, from, to);
    const list = octopusIntervals(imports, exports, clock.now());
    const at = (h: number, m = 0) => list.find((iv) => iv.start === LON_DAY + h * HOUR + m * MIN)!;
    expect(at(13)).toMatchObject({ importPerKwh: -0.025, feedInPerKwh: -0.01, descriptor: 'negative', kind: 'forecast' });
    expect(at(17)).toMatchObject({ importPerKwh: 0.95, feedInPerKwh: 0.45, descriptor: 'spike', spike: true });
    expect(at(17, 30)).toMatchObject({ importPerKwh: 0.38, descriptor: 'high', spike: false });
    expect(at(4)).toMatchObject({ importPerKwh: 0.12, descriptor: 'low', kind: 'actual' });
  });

  it("tomorrow's rates appear only from 16:00 UK time", async () => {
    const { sim, clock } = await octopusAt(LON_DAY + 15 * HOUR);
    const tomorrowNoon = LON_DAY + 36 * HOUR;
    const ask = async () => (await fetchOctopusRates(fetch, sim.url, sim.product, sim.importTariff, LON_DAY, LON_DAY + 48 * HOUR)).some((r) => r.start === tomorrowNoon);
    expect(await ask()).toBe(false);
    clock.advance(HOUR);
    expect(await ask()).toBe(true);
  });

  it('a next page on another host is not followed', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ count: 2, next: 'http://169.254.169.254/latest/', previous: null, results: [{ value_exc_vat: 1, value_inc_vat: 1.05, valid_from: '2026-11-30T00:00:00Z', valid_to: '2026-11-30T00:30:00Z' }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(fetchOctopusRates(fetch, url, 'P', 'T', LON_DAY, LON_DAY + HOUR)).rejects.toThrow("Octopus's next page points elsewhere");
  });
});

describe('the price source: polling, back-off, cache', () => {
  it('Amber: fetches each minute while the current interval is an estimate, then at the next interval start', async () => {
    const { clock, sim } = await amberAt(SYD_DAY + 9 * HOUR + 30_000);
    const src = createPriceSource({ clock, logger: silentLogger, settings: () => amberSettings(sim), fetch, dataDir: tempDir() });
    closers.push(() => src.stop());
    src.start();
    clock.advance(0);
    await src.idle();
    // 09:00:30: the current interval (09:00–09:05) is an estimate for its first half.
    expect(src.book()!.at(clock.now())).toMatchObject({ estimate: true, kind: 'current', importPerKwh: 0.12 });
    expect(src.status().nextAttemptAt).toBe(clock.now() + MIN);
    clock.advance(MIN);
    await src.idle();
    clock.advance(MIN);
    await src.idle();
    // 09:02:30: settled; the next fetch is at 09:05.
    expect(src.book()!.at(clock.now())).toMatchObject({ estimate: false });
    expect(src.status().nextAttemptAt).toBe(SYD_DAY + 9 * HOUR + 5 * MIN);
    expect(sim.requests).toHaveLength(3);
    expect(src.book()!.stale()).toBe(false);
  });

  it('an outage loses no interval, says stale, backs off, and a restart keeps the day from the cache', async () => {
    const dataDir = tempDir();
    const { clock, sim } = await amberAt(SYD_DAY + 16 * HOUR + 3 * MIN);
    const src = createPriceSource({ clock, logger: silentLogger, settings: () => amberSettings(sim), fetch, dataDir });
    src.start();
    clock.advance(0);
    await src.idle();
    expect(src.book()!.at(clock.now())!.importPerKwh).toBe(0.45);
    sim.fail('down');
    // Forty minutes of outage: the fetches back off (30 s, 60 s, 120 s, …), the book goes stale.
    const attemptsBefore = sim.requests.length;
    for (let i = 0; i < 40; i++) {
      clock.advance(MIN);
      await src.idle();
    }
    const attempts = sim.requests.length - attemptsBefore;
    expect(attempts).toBeGreaterThanOrEqual(4);
    expect(attempts).toBeLessThanOrEqual(7);
    expect(src.status().lastError).toMatch(/^Amber: no HTTP answer/);
    expect(src.book()!.stale()).toBe(true);
    // The forecast fetched before the outage still prices it: 16:03 + 40 min is 16:43 (45 c).
    expect(src.book()!.at(clock.now())).toMatchObject({ importPerKwh: 0.45, kind: 'current' });
    src.stop();

    // A restart during the outage: the cache gives back today's intervals (simulator still down).
    const again = createPriceSource({ clock, logger: silentLogger, settings: () => amberSettings(sim), fetch, dataDir });
    closers.push(() => again.stop());
    again.start();
    expect(again.book()!.at(SYD_DAY + 16 * HOUR)!.importPerKwh).toBe(0.45);
    expect(again.book()!.at(SYD_DAY + 18 * HOUR + 10 * MIN)).toMatchObject({ importPerKwh: 3, spike: true });
    sim.fail(null);
    clock.advance(0);
    await again.idle();
    expect(again.book()!.stale()).toBe(false);
    // The first fetch after the outage asked back to the last good one: every 5 minutes from 16:00 on is settled.
    const lastAsk = sim.requests.at(-1)!;
    expect(Number(lastAsk.query.get('previous'))).toBeGreaterThanOrEqual(9);
    const settled = again.book()!.between(SYD_DAY + 16 * HOUR, SYD_DAY + 16 * HOUR + 40 * MIN);
    expect(settled.map((iv) => (iv.start - SYD_DAY - 16 * HOUR) / MIN)).toEqual([0, 5, 10, 15, 20, 25, 30, 35]);
    expect(settled.every((iv) => iv.kind === 'actual')).toBe(true);
  });

  it('a refused token waits half an hour; a 429 waits its Retry-After', async () => {
    const { clock, sim } = await amberAt(SYD_DAY + 9 * HOUR);
    const src = createPriceSource({ clock, logger: silentLogger, settings: () => amberSettings(sim), fetch, dataDir: tempDir() });
    closers.push(() => src.stop());
    sim.fail(401);
    src.start();
    clock.advance(0);
    await src.idle();
    expect(src.status()).toMatchObject({ lastError: 'Amber refused the API token (HTTP 401): check it in the settings', nextAttemptAt: clock.now() + 30 * MIN });
    sim.fail(429);
    src.apply();
    clock.advance(0);
    await src.idle();
    expect(src.status().nextAttemptAt).toBe(clock.now() + 120_000);
    expect(src.book()!.stale()).toBe(true);
  });

  it('Octopus: hourly, and every 10 minutes from 16:00 UK time until tomorrow is published', async () => {
    const { clock, sim } = await octopusAt(LON_DAY + 15 * HOUR + 20 * MIN, 16 * 60 + 25);
    const src = createPriceSource({ clock, logger: silentLogger, settings: () => octopusSettings(sim), fetch, dataDir: tempDir() });
    closers.push(() => src.stop());
    src.start();
    clock.advance(0);
    await src.idle();
    expect(src.book()!.at(clock.now())).toMatchObject({ importPerKwh: 0.18, feedInPerKwh: 0.08, kind: 'current' });
    expect(src.status().nextAttemptAt).toBe(LON_DAY + 16 * HOUR);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      clock.set(src.status().nextAttemptAt!);
      await src.idle();
      times.push((src.status().lastAttemptAt! - LON_DAY) / MIN);
    }
    // 16:00, 16:10, 16:20 find no tomorrow; 16:30 does; then 17:00.
    expect(times).toEqual([16 * 60, 16 * 60 + 10, 16 * 60 + 20, 16 * 60 + 30, 17 * 60]);
    expect(src.book()!.at(LON_DAY + 36 * HOUR)!.importPerKwh).toBe(0.1);
  });

  it('the cache is written inside the data folder and never over a file it did not write', async () => {
    const dataDir = tempDir();
    fs.mkdirSync(path.join(dataDir, 'energy'));
    fs.writeFileSync(priceCacheFile(dataDir), 'my own notes');
    const { clock, sim } = await amberAt(SYD_DAY + 9 * HOUR);
    const src = createPriceSource({ clock, logger: silentLogger, settings: () => amberSettings(sim), fetch, dataDir });
    closers.push(() => src.stop());
    src.start();
    clock.advance(0);
    await src.idle();
    expect(src.book()!.at(clock.now())).not.toBeNull();
    expect(fs.readFileSync(priceCacheFile(dataDir), 'utf8')).toBe('my own notes');
  });
});
