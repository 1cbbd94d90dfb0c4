import { describe, expect, it } from 'vitest';
import { descriptorWords, formatPerKwh, priceExplainer } from './price-words.js';
import type { PricePoint, Prices } from './types.js';

const point = (start: string, end: string, p: Partial<PricePoint> = {}): PricePoint => ({ start, end, importPerKwh: 0.25, feedInPerKwh: 0.05, descriptor: 'neutral', spike: false, estimate: false, ...p });
const prices = (current: PricePoint | null, p: Partial<Prices> = {}): Prices => ({ source: 'amber', currency: 'AUD', stale: false, fetchedAt: '2026-01-14T01:00:00.000Z', current, forecast: [], ...p });
const now = Date.parse('2026-01-14T01:02:00.000Z');

describe('price words', () => {
  it('prices per kWh as people quote them: cents or pence, the main unit from one up', () => {
    expect(formatPerKwh(0.2534, 'AUD')).toBe('25.3 c/kWh');
    expect(formatPerKwh(-0.04, 'GBP')).toBe('−4.0 p/kWh');
    expect(formatPerKwh(12, 'AUD')).toMatch(/12\.00\/kWh$/);
    expect(descriptorWords('extremelyLow')).toBe('extremely low');
  });

  it('says export is costing money when the feed-in price is below zero', () => {
    const w = priceExplainer(prices(point('2026-01-14T01:00:00.000Z', '2026-01-14T01:05:00.000Z', { feedInPerKwh: -0.04 })), now);
    expect(w.some((s) => s.startsWith('Export is costing money now (−4.0 c/kWh'))).toBe(true);
  });

  it('a spike, being paid to use power, an estimate, a spike ahead and stale prices each get their sentence', () => {
    const spike = priceExplainer(prices(point('2026-01-14T01:00:00.000Z', '2026-01-14T01:05:00.000Z', { importPerKwh: 12, spike: true, descriptor: 'spike', estimate: true })), now);
    expect(spike[0]).toMatch(/^Price spike: importing costs .*12\.00\/kWh until /);
    expect(spike).toContain('The current price is an estimate and may still change.');
    const paid = priceExplainer(prices(point('2026-01-14T01:00:00.000Z', '2026-01-14T01:05:00.000Z', { importPerKwh: -0.05 })), now);
    expect(paid[0]).toMatch(/^You are paid to use power now \(−5\.0 c\/kWh until /);
    const ahead = priceExplainer(prices(point('2026-01-14T01:00:00.000Z', '2026-01-14T01:05:00.000Z'), { forecast: [point('2026-01-14T07:00:00.000Z', '2026-01-14T07:05:00.000Z', { spike: true, importPerKwh: 3 })] }), now);
    expect(ahead[0]).toMatch(/^A spike is forecast from /);
    const stale = priceExplainer(prices(null, { stale: true }), now);
    expect(stale[0]).toMatch(/^Prices are out of date/);
    expect(stale[1]).toBe('No price is known for now: the tariff’s fixed rates apply.');
    expect(priceExplainer(prices(point('2026-01-14T01:00:00.000Z', '2026-01-14T01:05:00.000Z')), now)).toEqual([]);
  });
});
