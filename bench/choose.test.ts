import { describe, expect, it } from 'vitest';
import { chooseBenches } from './choose.js';

describe('npm run bench: which benchmarks run', () => {
  const files = ['energy-load.bench.ts', 'soak.bench.ts', 'recordings-list.bench.ts', 'energy-load-child.ts', 'report.ts'];

  it('leaves the soak out of a plain run', () => {
    expect(chooseBenches(files, []).files).toEqual(['energy-load.bench.ts', 'recordings-list.bench.ts']);
  });

  it('runs the soak when named, passing --minutes on instead of taking it for a name', () => {
    expect(chooseBenches(files, ['soak', '--minutes=120'])).toEqual({ files: ['soak.bench.ts'], passOn: ['--minutes=120'] });
  });
});
