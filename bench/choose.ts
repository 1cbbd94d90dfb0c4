/** Benchmarks that run for tens of minutes: only when asked for by name. */
export const ONLY_BY_NAME = ['soak.bench.ts'];

/**
 * Which `*.bench.ts` files `npm run bench` runs, and the arguments it passes on to each: every
 * benchmark but the long ones when no name is given, else those whose file name contains one of
 * the names. Arguments starting with `--` (`--minutes=120`) are passed on, never taken as names.
 */
export function chooseBenches(files: string[], args: string[]): { files: string[]; passOn: string[] } {
  const wanted = args.filter((a) => !a.startsWith('--'));
  return {
    files: files
      .filter((f) => f.endsWith('.bench.ts'))
      .filter((f) => (wanted.length === 0 ? !ONLY_BY_NAME.includes(f) : wanted.some((w) => f.includes(w))))
      .sort(),
    passOn: args.filter((a) => a.startsWith('--')),
  };
}
