import fs from 'node:fs';
import path from 'node:path';

/**
 * Small helpers for benchmark output: a figure, its target, and whether it met it. A missed target
 * is reported, never an exit code: a busy machine changes a figure, not whether a correct program
 * passes. Benchmarks exit non-zero only when something is wrong (bad bytes, a failed sync).
 * When `npm run bench` runs them, every figure is also appended to `BENCH_REPORT` for its final table.
 */
export function figure(name: string, value: number, unit: string, target?: { max?: number; min?: number }): boolean {
  let verdict = '';
  let ok = true;
  let goal = '';
  if (target?.max !== undefined) {
    ok = value <= target.max;
    goal = `<= ${target.max} ${unit}`;
  } else if (target?.min !== undefined) {
    ok = value >= target.min;
    goal = `>= ${target.min} ${unit}`;
  }
  if (goal) verdict = ` (target ${goal}: ${ok ? 'met' : 'MISSED'})`;
  console.log(`${name}: ${round(value)} ${unit}${verdict}`);
  const file = process.env.BENCH_REPORT;
  if (file) {
    const bench = path.basename(process.argv[1] ?? '').replace(/\.bench\.ts$/, '');
    fs.appendFileSync(file, `${JSON.stringify({ bench, name, value: round(value), unit, goal, met: goal ? ok : null })}\n`);
  }
  return ok;
}

export function round(v: number): number {
  return Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 100) / 100;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export async function timeIt<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}
