import { describe, expect, it } from 'vitest';
import { formatKwh, formatPercent } from '../../kit/format.js';
import { storedKwh } from './BatteryGauge.js';
import { colorOf } from './PowerFlow.js';

describe('dashboard figures agree with each other', () => {
  it('stored energy is on the capacity the page shows: a full 16 kWh battery holds 16.0 kWh, not 16.1', () => {
    // The gateway reports its rated 16.12 kWh; the owner set 16 kWh in Settings.
    const full = { soc: 100, capacityKwh: 16, energyRemainingKwh: 16.12 };
    expect(`${formatKwh(storedKwh(full), 1)} of ${formatKwh(full.capacityKwh, 1)}`).toBe('16.0 kWh of 16.0 kWh');
    expect(storedKwh({ soc: 71.9, capacityKwh: 16, energyRemainingKwh: 11.6 })).toBeCloseTo(11.504, 3);
    // No capacity known: the gateway's own figure.
    expect(storedKwh({ soc: 50, capacityKwh: null, energyRemainingKwh: 8.06 })).toBe(8.06);
  });

  it('the ring and the line below it round the same way', () => {
    expect(formatPercent(71.94)).toBe('71.9%');
  });

  it('the grid is one colour per direction: green throughout while exporting, red while importing', () => {
    expect(colorOf({ key: 'grid', dir: 'out' })).toBe('var(--grid-export)');
    expect(colorOf({ key: 'grid', dir: 'in' })).toBe('var(--grid)');
    expect(colorOf({ key: 'battery', dir: 'out' })).toBe('var(--battery)');
  });
});
