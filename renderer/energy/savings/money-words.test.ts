import { describe, expect, it } from 'vitest';
import { paidInsteadOf, savedOrCost, selfSufficiencyText } from './money-words.js';

const gbp = (v: number) => `£${v.toFixed(2)}`;

describe('money in words', () => {
  it('says a negative bill is a credit you earned, never a minus sign', () => {
    expect(paidInsteadOf(-2.18, 8.49, gbp)).toBe('You earned a credit of £2.18 instead of paying £8.49.');
    expect(paidInsteadOf(1.06, 8.49, gbp)).toBe('You paid £1.06 instead of £8.49.');
    expect(paidInsteadOf(-1, -0.5, gbp)).toBe('You earned a credit of £1.00 instead of earning a credit of £0.50.');
    expect(paidInsteadOf(null, 8.49, gbp)).toBe('');
  });
  it('says a negative saving is money spent', () => {
    expect(savedOrCost(3.1, gbp)).toBe('£3.10 saved');
    expect(savedOrCost(-0.06, gbp)).toBe('£0.06 more spent');
  });
  it('names the supply charge when a day with no grid power still cost money', () => {
    expect(selfSufficiencyText({ selfSufficiencyPct: 100, paid: 1.06, importKwh: 0, supplyCharge: 1.06 }, gbp)).toBe(
      'Self-sufficiency 100%: the home took no power from the grid today. The £1.06 paid is the daily supply charge.',
    );
    expect(selfSufficiencyText({ selfSufficiencyPct: 100, paid: 0.8, importKwh: 0, supplyCharge: 1 }, gbp)).toBe(
      'Self-sufficiency 100%: the home took no power from the grid today. The £0.80 paid is the daily supply charge (£1.00, less £0.20 earned by exports).',
    );
    expect(selfSufficiencyText({ selfSufficiencyPct: 100, paid: -2, importKwh: 0, supplyCharge: 1 }, gbp)).toBe('Self-sufficiency 100%: the home took no power from the grid today.');
  });
  it('never says 100% while something came from the grid', () => {
    expect(selfSufficiencyText({ selfSufficiencyPct: 99.97, paid: 1.07, importKwh: 0.01, supplyCharge: 1.06 }, gbp)).toBe(
      'Self-sufficiency 99.9%: 0.01 kWh came from the grid today. What was paid includes the daily supply charge of £1.06, due with or without grid power.',
    );
    expect(selfSufficiencyText({ selfSufficiencyPct: 72.61, paid: 3, importKwh: 4.2, supplyCharge: 0 }, gbp)).toBe('Self-sufficiency 72.6%: 4.20 kWh came from the grid today.');
    expect(selfSufficiencyText({ selfSufficiencyPct: null, paid: null }, gbp)).toBe('Self-sufficiency —.');
  });
});
