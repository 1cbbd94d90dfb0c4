import { defineConfig } from 'vitest/config';

/**
 * The vitest configuration Stryker runs (see stryker.config.mjs and scripts/mutation.mjs): only the
 * test files that pin one module's spec rules, named in MUTATION_TESTS (comma-separated), so each
 * mutant runs the fast tests that judge it rather than the whole suite.
 */
const tests = (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean);

export default defineConfig({
  test: {
    include: tests.length > 0 ? tests : ['main/**/*.mutation.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
