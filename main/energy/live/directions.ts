/** |W| below this is `idle` for the direction fields (shared/reference/open-values.md). */
export const DEADBAND_W = 50;

export type GridDirection = 'import' | 'export' | 'idle';
export type BatteryDirection = 'charge' | 'discharge' | 'idle';

export function direction<P extends string, N extends string>(watts: number, positive: P, negative: N): P | N | 'idle' {
  if (watts >= DEADBAND_W) return positive;
  if (watts <= -DEADBAND_W) return negative;
  return 'idle';
}

export function gridDirection(w: number | null): GridDirection | null {
  return w === null ? null : direction(w, 'import', 'export');
}

export function batteryDirection(w: number | null): BatteryDirection | null {
  return w === null ? null : direction(w, 'charge', 'discharge');
}
