import { defineConfig } from 'vitest/config';
import { nodeVersionProblem } from './main/core/node-version.js';

// On an older Node the SQLite addon crashes the test processes; say so once, up front.
const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem) throw new Error(problem);

export default defineConfig({
  test: {
    include: ['main/**/*.test.ts', 'deploy/**/*.test.ts', 'preload/**/*.test.ts', 'renderer/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // dist/ built once before the files that start the compiled server run in parallel.
    globalSetup: ['scripts/test-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two cores: keep workers to two so heavy media tests do not starve each other.
    maxWorkers: 2,
  },
});
