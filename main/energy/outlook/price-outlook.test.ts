import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createOutbound } from '../../core/outbound.js';
import type { FeatureContext, FeatureSettings } from '../feature.js';
import { emptyLiveState, LiveStateStore } from '../live-state.js';
import { bookOf, type PriceInterval } from '../prices/price-book.js';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { startOfLocalDay } from '../tariff/local-time.js';
import { createOutlookFeature } from './feature.js';
import { priceHours } from './price-hours.js';
import type { solarSection } from './settings.js';
import type { weatherSection } from '../weather/settings.js';

// Issue 43: the day ahead names the cheapest and dearest hours of the price forecast and what the
// battery's expected evening use is worth at those prices. Figures worked by hand in the comments.
const tz = 'Australia/Sydney';
const MIN = 60_000;
const day = startOfLocalDay('2026-01-14', tz);
const local = (hh: number, mm = 0) => day + (hh * 60 + mm) * MIN;
const iso = (t: number) => new Date(t).toISOString();

/** Amber 5-minute intervals from 00:00 today to 00:00 the day after tomorrow. */
const list: PriceInterval[] = Array.from({ length: 2 * 288 }, (_, i) => {
  const start = day + i * 5 * MIN;
  const price =
    start >= local(17) && start < local(18) ? 1 // dear
    : start >= local(18) && start < local(18, 30) ? 5 // a spike
    : start === local(26, 30) ? -0.1 // 02:30 tomorrow: paid to consume
    : start >= local(26) && start < local(27) ? 0.05 // 02:00-03:00 tomorrow: cheap
    : 0.3;
  return { start, end: start + 5 * MIN, importPerKwh: price, feedInPerKwh: 0.05, descriptor: null, kind: 'forecast', estimate: false, spike: price === 5 };
});

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('the day ahead priced from the forecast intervals', () => {
  it('the cheapest and dearest whole hours', () => {
    const { cheapest, dearest } = priceHours(list, local(15), local(39));
    // 02:00-03:00: eleven intervals at $0.05 and one at -$0.10: (0.55 - 0.10) / 12 = $0.0375 (an hour
    // shifted by 5 minutes takes a $0.30 interval in: 02:05-03:05 is (0.50 - 0.10 + 0.30) / 12 = $0.0583).
    expect(cheapest).toEqual({ startsAt: local(26), endsAt: local(27), averagePerKwh: expect.closeTo(0.0375, 10) });
    // 17:30-18:30: six intervals at $1 and six of the $5 spike: 36 / 12 = $3 (18:00-19:00 is (30 + 1.8) / 12 = $2.65).
    expect(dearest).toEqual({ startsAt: local(17, 30), endsAt: local(18, 30), averagePerKwh: expect.closeTo(3, 10) });
    // Octopus half hours make an hour of two; a gap in the intervals makes no hour across it.
    const half = (start: number, importPerKwh: number): PriceInterval => ({ ...list[0]!, start, end: start + 30 * MIN, importPerKwh });
    expect(priceHours([half(local(1), 0.2), half(local(1, 30), 0.1), half(local(3), 0.01)], local(0), local(24))).toEqual({
      cheapest: { startsAt: local(1), endsAt: local(2), averagePerKwh: expect.closeTo(0.15, 10) },
      dearest: { startsAt: local(1), endsAt: local(2), averagePerKwh: expect.closeTo(0.15, 10) },
    });
  });

  it('the outlook says when they are and what the battery’s evening is worth', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'price-outlook-'));
    dirs.push(dataDir);
    const clock = createManualClock(local(15));
    const settings = energySettingsSchema.parse({
      general: { timezone: tz, currency: 'AUD' },
      tariff: { importRate: 0.3 },
      battery: { capacityKwh: 10, reserveSoc: 10 },
    }) as FeatureSettings<typeof solarSection | typeof weatherSection>;
    const s0 = emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000);
    // 15:00, no sun (the weather is off), the house uses 1 kW; the battery holds 50 % of 10 kWh over a 10 % reserve.
    const state = new LiveStateStore({ ...s0, connected: true, lastUpdated: local(15), power: { ...s0.power, solar: 0, home: 1000, grid: 0, battery: -1000 }, battery: { ...s0.battery, soc: 50 } });
    const ctx: FeatureContext<typeof settings> = {
      clock, logger: silentLogger, settings: () => settings, state, dataDir, historyFile: path.join(dataDir, 'none.db'), gate: async () => {},
      outbound: createOutbound({ transport: () => Promise.reject(new Error('offline')) }),
      prices: () => bookOf('amber', list),
    };
    const outlook = createOutlookFeature(ctx);
    const snap = outlook.snapshot!({} as never) as { outlook: { prices: unknown } };
    // The battery gives 1 kW from 15:00 until its 4 kWh above the reserve run out at 19:00. From 16:00:
    //   16:00-17:00 1 kWh at $0.30 = $0.30; 17:00-18:00 1 kWh at $1 = $1.00;
    //   18:00-18:30 0.5 kWh at the $5 spike = $2.50; 18:30-19:00 0.5 kWh at $0.30 = $0.15.
    //   3 kWh worth $3.95.
    expect(snap.outlook.prices).toEqual({
      currency: 'AUD',
      cheapest: { startsAt: iso(local(26)), endsAt: iso(local(27)), averagePerKwh: 0.0375 },
      dearest: { startsAt: iso(local(17, 30)), endsAt: iso(local(18, 30)), averagePerKwh: 3 },
      evening: { fromAt: iso(local(16)), untilAt: iso(local(24)), batteryKwh: 3, worth: 3.95 },
    });
  });
});
