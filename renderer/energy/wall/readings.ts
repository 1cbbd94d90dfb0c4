import { formatPercent, formatPower } from '../../kit/format.js';
import type { Snapshot } from '../types.js';

export type ReadingKey = 'solar' | 'home' | 'battery' | 'grid';
export const READING_KEYS: readonly ReadingKey[] = ['solar', 'home', 'battery', 'grid'];

export interface Reading {
  key: ReadingKey;
  label: string;
  /** The big number. */
  value: string;
  /** What it is doing, in words ("Charging 1.20 kW"). */
  detail: string;
  /** Colour token of the reading (CSS custom property name without `--`). */
  color: string;
}

/** The four wall readings from a snapshot: solar, home, battery (state of charge first) and grid. */
export function readingsOf(s: Pick<Snapshot, 'power' | 'battery'>): Reading[] {
  const p = s.power;
  const solarOn = (p.solar ?? 0) >= 50;
  const grid = p.gridDirection === 'import' ? 'Buying from the grid' : p.gridDirection === 'export' ? 'Selling to the grid' : 'Grid idle';
  const battery = p.batteryDirection === 'charge' ? `Charging ${formatPower(p.battery)}` : p.batteryDirection === 'discharge' ? `Discharging ${formatPower(p.battery)}` : 'Battery idle';
  return [
    { key: 'solar', label: 'Solar', value: formatPower(p.solar), detail: solarOn ? 'Producing' : 'Not producing', color: 'solar' },
    { key: 'home', label: 'Home', value: formatPower(p.home), detail: 'Using now', color: 'home' },
    { key: 'battery', label: 'Battery', value: formatPercent(s.battery.soc), detail: battery, color: 'battery' },
    { key: 'grid', label: 'Grid', value: formatPower(p.grid), detail: grid, color: p.gridDirection === 'export' ? 'grid-export' : 'grid' },
  ];
}

export const isReading = (k: string): k is ReadingKey => (READING_KEYS as readonly string[]).includes(k);

/** Text size steps of the wall view (a multiplier of the base size). */
export const SCALE_MIN = 0.6;
export const SCALE_MAX = 2;
export const SCALE_STEP = 0.2;

export function stepScale(scale: number, dir: 1 | -1): number {
  const next = Math.round((scale + dir * SCALE_STEP) * 10) / 10;
  return Math.min(SCALE_MAX, Math.max(SCALE_MIN, next));
}
