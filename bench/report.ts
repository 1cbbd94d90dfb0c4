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

/**
 * Least-squares line through the points: `slope` (y per x), and `residual`, the root-mean-square
 * distance of the points from the line (the noise around the trend, in y's unit).
 */
export function linearFit(xs: number[], ys: number[]): { slope: number; intercept: number; residual: number } {
  const n = xs.length;
  if (n < 2) return { slope: 0, intercept: ys[0] ?? 0, residual: 0 };
  const mx = xs.reduce((a, x) => a + x, 0) / n;
  const my = ys.reduce((a, y) => a + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const intercept = my - slope * mx;
  const residual = Math.sqrt(xs.reduce((a, x, i) => a + (ys[i]! - (intercept + slope * x)) ** 2, 0) / n);
  return { slope, intercept, residual };
}
