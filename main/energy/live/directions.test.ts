import { describe, expect, it } from 'vitest';
import { batteryDirection, gridDirection } from './directions.js';

// shared/reference/open-values.md: |W| < 50 → `idle`; otherwise the sign restated
// (grid positive = import, battery positive = charge).
describe('direction fields past the 50 W deadband', () => {
  it('grid: 50 W and more is import, -50 W and less is export, between is idle', () => {
    expect(gridDirection(50)).toBe('import');
    expect(gridDirection(3200)).toBe('import');
    expect(gridDirection(49.9)).toBe('idle');
    expect(gridDirection(0)).toBe('idle');
    expect(gridDirection(-49.9)).toBe('idle');
    expect(gridDirection(-50)).toBe('export');
    expect(gridDirection(-4100)).toBe('export');
  });

  it('battery: 50 W and more is charge, -50 W and less is discharge, between is idle', () => {
    expect(batteryDirection(50)).toBe('charge');
    expect(batteryDirection(49)).toBe('idle');
    expect(batteryDirection(-49)).toBe('idle');
    expect(batteryDirection(-50)).toBe('discharge');
    expect(batteryDirection(-2500)).toBe('discharge');
  });

  it('an unknown power has no direction', () => {
    expect(gridDirection(null)).toBeNull();
    expect(batteryDirection(null)).toBeNull();
  });
});
