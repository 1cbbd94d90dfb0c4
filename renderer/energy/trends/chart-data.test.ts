import { describe, expect, it } from 'vitest';
import { timeTicks } from './chart-data.js';

const H = 3_600_000;

describe('trends x-axis ticks', () => {
  it('spread across the whole chosen range, not only the last sample', () => {
    const to = new Date(2026, 10, 20, 14, 37).getTime();
    for (const span of [H, 24 * H, 7 * 24 * H]) {
      const ticks = timeTicks(to - span, to);
      expect(ticks.length).toBeGreaterThanOrEqual(4);
      expect(ticks.length).toBeLessThanOrEqual(8);
      expect(ticks[0]! - (to - span)).toBeLessThan(span / 3);
      expect(to - ticks[ticks.length - 1]!).toBeLessThan(span / 3);
      expect(ticks.every((t) => t >= to - span && t <= to)).toBe(true);
    }
  });

  it('fall on round local times', () => {
    const to = new Date(2026, 10, 20, 14, 37).getTime();
    expect(timeTicks(to - H, to).map((t) => new Date(t).getMinutes() % 10)).toEqual(timeTicks(to - H, to).map(() => 0));
    const week = timeTicks(to - 7 * 24 * H, to);
    expect(week.every((t) => new Date(t).getHours() === 0 && new Date(t).getMinutes() === 0)).toBe(true);
    expect(timeTicks(to, to)).toEqual([]);
  });
});
