import { describe, expect, it } from 'vitest';
import { formatNumber, isoFormatter } from './export.js';

describe('export cell formatting', () => {
  it('writes numbers exactly as String() does, and they parse back to the same double', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const values = [0, -0, 1, -1, 0.1, 0.3, 0.1 + 0.2, -0.05, 99.99, 123.456, 1e-7, 5e-324, 1e20, -1e15, 999_999_999_999_999.9, Number.MAX_SAFE_INTEGER];
    for (let i = 0; i < 50_000; i++) {
      values.push(Math.round((rnd() - 0.5) * 2e6) / 100, Math.round((rnd() - 0.5) * 2e5) / 10, (rnd() - 0.5) * 1e4, Math.round(rnd() * 1e6));
    }
    // One assertion over all 200,000 values (one expect() each took 20 s on a loaded machine).
    const wrong = values.filter((v) => formatNumber(v) !== String(v) || !Object.is(Number(formatNumber(v)), v === 0 ? 0 : v));
    expect(wrong.map((v) => [v, formatNumber(v)])).toEqual([]);
    expect(formatNumber(null)).toBe('');
  });

  it('writes ISO times exactly as toISOString does across minute, day and year edges', () => {
    const iso = isoFormatter();
    const starts = [Date.UTC(2026, 0, 1) - 61_000, Date.UTC(2026, 2, 29, 0, 59, 58), Date.UTC(2027, 11, 31, 23, 58, 30)];
    for (const start of starts) {
      for (let t = start; t < start + 200_000; t += 997) expect(iso(t)).toBe(new Date(t).toISOString());
    }
  });
});
