import { configDefaults, defineConfig } from 'vitest/config';
import { nodeVersionProblem } from './main/core/node-version.js';

// On an older Node the SQLite addon crashes the test processes; say so once, up front.
const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem) throw new Error(problem);

const include = ['main/**/*.test.ts', 'deploy/**/*.test.ts', 'preload/**/*.test.ts', 'renderer/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'];

/**
 * Files that change something process-wide, each in a process of its own (`isolate`): module mocks
 * and globals (vi.mock, globalThis), fake timers, spies on shared modules, prom-client, the
 * process's unhandledRejection listeners and hap-nodejs's one store folder per process. Every other
 * file runs with `isolate: false`: a worker process runs file after file and loads a shared module
 * once, not once a file (that loading was a fifth of the suite's time). Found by grep, issue 39:
 * `vi\.(mock|spyOn|useFakeTimers|stubGlobal|stubEnv)`, `globalThis`, `prom-client`,
 * `process\.(on|env\.X =)`, `unhandledRejection`, `HAPStorage|homehub` (the pairing page). A new
 * file doing one of these goes here. A spy on an object the test made itself (security.test.ts) and
 * a word in a comment or in a child process's checks (server-bundle.test.ts: prom-client) do not.
 */
const isolated = [
  'main/electron/shell.test.ts',
  'main/recordings/cloud/cloud-handshake.test.ts',
  'main/recordings/cron.test.ts',
  'main/integrations/metrics/lazy-metrics.test.ts',
  'main/recordings/service.test.ts',
  'main/energy/homekit/**/*.test.ts',
  'main/energy/import/sigen-homekit.test.ts',
  'main/energy/import/import-routes.test.ts',
  'main/server-env.test.ts',
  // Measures its own process's peak RSS growth: after other files in a shared worker, V8's heap
  // state put a hostile listing's growth at ~255 MB against 200 (clean-clone run, 8ac255c).
  'main/recordings/sync/hostile-box.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // dist/ built once before the files that start the compiled server run in parallel.
    globalSetup: ['scripts/test-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two cores: keep workers to two so heavy media tests do not starve each other.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include, exclude: [...configDefaults.exclude, ...isolated], isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
    ],
  },
});
