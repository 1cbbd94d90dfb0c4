import { describe, expect, it } from 'vitest';
import { paidInsteadOf, savedOrCost } from './money-words.js';

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
});
