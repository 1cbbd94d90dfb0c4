import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['main/**/*.test.ts', 'deploy/**/*.test.ts', 'preload/**/*.test.ts', 'renderer/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two cores: keep workers to two so heavy media tests do not starve each other.
    maxWorkers: 2,
  },
});
