// Mutation testing of the modules that carry spec rules. Run through `npm run mutation [module…]`
// (scripts/mutation.mjs), which mutates one module at a time (MUTATION_MODULE) with the test files
// that judge it and its own incremental file; it is slow and not part of `npm test`.
// Scores: docs/mutation.md.
import process from 'node:process';
import { MUTATION_MODULES } from './scripts/mutation-modules.mjs';

const name = process.env.MUTATION_MODULE ?? 'directions';
const target = MUTATION_MODULES[name];
if (!target) throw new Error(`MUTATION_MODULE: unknown module ${name} (one of ${Object.keys(MUTATION_MODULES).join(', ')})`);
// Read by vitest.mutation.config.ts in the test-runner processes Stryker forks.
process.env.MUTATION_TESTS = target.tests.join(',');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [target.mutate],
  // Two cores shared with the rest of the work on this machine.
  concurrency: 1,
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 20_000,
  ignorePatterns: ['.runtime', 'e2e', 'docs', 'dist', 'release', 'native', 'coverage', 'test-results', 'playwright-report', 'reports', '.data', '.scratch'],
  thresholds: { high: 90, low: 80, break: null },
};
