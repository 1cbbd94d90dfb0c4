import { describe, expect, it } from 'vitest';
import { linearFit } from './report.js';

describe('linearFit', () => {
  it('gives the slope of a line through noisy points, and the noise as its residual', () => {
    // RSS in MB over hours: 200 MB rising 3 MB an hour, ±0.5 MB alternating.
    const hours = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75];
    const mb = hours.map((h, i) => 200 + 3 * h + (i % 2 ? 0.5 : -0.5));
    const fit = linearFit(hours, mb);
    expect(fit.slope).toBeCloseTo(3, 0);
    expect(fit.residual).toBeGreaterThan(0.4);
    expect(fit.residual).toBeLessThan(0.6);
  });

  it('says flat (slope 0, residual 0) for a flat series', () => {
    expect(linearFit([0, 1, 2], [50, 50, 50])).toEqual({ slope: 0, intercept: 50, residual: 0 });
  });
});
