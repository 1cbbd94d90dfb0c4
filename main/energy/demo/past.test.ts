import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoClock, createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { clockView } from '../../core/clock-route.js';
import { seedDemoHistory } from './past.js';
import { createHistory } from '../history/index.js';

const DAY = 86_400_000;

describe('the demo past', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-past-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes a week of plant-model samples at the demo pace that the history then serves', () => {
    const until = new Date(2026, 10, 20, 9, 30).getTime();
    const { samples, plant } = seedDemoHistory({ dataDir: dir, until, days: 7, stepMs: 60_000, logger: silentLogger, live: () => until });
    expect(samples).toBeGreaterThanOrEqual(7 * 1440 - 2);

    const clock = createManualClock(until);
    const history = createHistory({ dataDir: dir, clock, logger: silentLogger, retentionMs: () => 7 * DAY });
    history.start();
    try {
      const stats = history.stats();
      expect(stats.count).toBeGreaterThanOrEqual(7 * 1440 - 2);
      expect(until - stats.firstT!).toBeGreaterThan(7 * DAY - 5 * 60_000);
      expect(until - stats.lastT!).toBeLessThanOrEqual(60_000);
      // Every day has a sunny middle and a dark night, and the battery stays within 0..100 %.
      const rows = history.query({ since: until - 7 * DAY, until, every: 3600 }).rows as Array<{ t: number; solar: number | null; soc: number | null }>;
      for (let d = 1; d <= 6; d++) {
        const day = rows.filter((r) => r.t >= until - d * DAY - 9.5 * 3_600_000 && r.t < until - (d - 1) * DAY - 9.5 * 3_600_000);
        const noon = day.filter((r) => new Date(r.t).getHours() === 12);
        const night = day.filter((r) => new Date(r.t).getHours() === 2);
        expect(noon[0]!.solar!).toBeGreaterThan(3000);
        expect(night[0]!.solar).toBe(0);
      }
      expect(rows.every((r) => r.soc !== null && r.soc >= 0 && r.soc <= 100)).toBe(true);
    } finally {
      history.stop();
    }
    // The simulator's plant carries on from the end of the past.
    expect(plant.soc).toBeGreaterThanOrEqual(0);
  });

  it('the demo clock runs at its speed, scales its timers and says so', () => {
    let real = 1_000_000;
    const clock = createDemoClock({ start: Date.UTC(2026, 10, 20, 9, 30), speed: 30, realNow: () => real });
    real += 2000;
    expect(clock.now()).toBe(Date.UTC(2026, 10, 20, 9, 31));
    expect(clockView(clock, 'Australia/Sydney')).toEqual({ now: Date.UTC(2026, 10, 20, 9, 31), speed: 30, demo: true, timeZone: 'Australia/Sydney' });
    expect(clockView(createManualClock(5), 'UTC')).toEqual({ now: 5, speed: 1, demo: false, timeZone: 'UTC' });
  });
});
