/** Small helpers for benchmark output: a figure, its target, and whether it met it. */
export function figure(name: string, value: number, unit: string, target?: { max?: number; min?: number }): boolean {
  let verdict = '';
  let ok = true;
  if (target?.max !== undefined) {
    ok = value <= target.max;
    verdict = ` (target <= ${target.max} ${unit}: ${ok ? 'met' : 'MISSED'})`;
  } else if (target?.min !== undefined) {
    ok = value >= target.min;
    verdict = ` (target >= ${target.min} ${unit}: ${ok ? 'met' : 'MISSED'})`;
  }
  console.log(`${name}: ${round(value)} ${unit}${verdict}`);
  return ok;
}

export function round(v: number): number {
  return Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 100) / 100;
}

export async function timeIt<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}
