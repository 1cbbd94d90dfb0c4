import { describe, expect, it } from 'vitest';
import { readingsOf, SCALE_MAX, SCALE_MIN, stepScale } from './readings.js';

const power = { solar: 5230, home: 1200, battery: 3000, grid: -1030, gridDirection: 'export', batteryDirection: 'charge' };

describe('wall readings', () => {
  it('shows solar, home, battery state of charge and grid with what each is doing', () => {
    const r = readingsOf({ power, battery: { soc: 64.5 } } as never);
    expect(r.map((x) => [x.label, x.value, x.detail])).toEqual([
      ['Solar', '5.23 kW', 'Producing'],
      ['Home', '1.20 kW', 'Using now'],
      ['Battery', '64.5%', 'Charging 3.00 kW'],
      ['Grid', '1.03 kW', 'Selling to the grid'],
    ]);
    expect(r[3]!.color).toBe('grid-export');
  });
  it('says buying and discharging the other way round, and dashes for unknown values', () => {
    const r = readingsOf({ power: { ...power, solar: null, grid: 800, gridDirection: 'import', battery: -900, batteryDirection: 'discharge' }, battery: { soc: null } } as never);
    expect(r[0]).toMatchObject({ value: '—', detail: 'Not producing' });
    expect(r[2]).toMatchObject({ value: '—', detail: 'Discharging 900 W' });
    expect(r[3]).toMatchObject({ detail: 'Buying from the grid', color: 'grid' });
  });
  it('text size steps by 20 % between 60 % and 200 %', () => {
    expect(stepScale(1, 1)).toBe(1.2);
    expect(stepScale(1, -1)).toBe(0.8);
    expect(stepScale(SCALE_MAX, 1)).toBe(SCALE_MAX);
    expect(stepScale(SCALE_MIN, -1)).toBe(SCALE_MIN);
  });
});
