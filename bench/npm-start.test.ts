import { describe, expect, it } from 'vitest';
import { parseNpmStart } from './npm-start.js';

describe('what npm start runs, for the benchmarks that start the services as users do', () => {
  it('reads the environment, the node flags and the script', () => {
    expect(parseNpmStart('exec env MALLOC_ARENA_MAX=2 node --max-semi-space-size=1 --v8-pool-size=1 dist/server/headless.js')).toEqual({
      env: { MALLOC_ARENA_MAX: '2' },
      nodeFlags: ['--max-semi-space-size=1', '--v8-pool-size=1'],
      argv: ['--max-semi-space-size=1', '--v8-pool-size=1', 'dist/server/headless.js'],
    });
  });

  it('refuses a start script that does not run node', () => {
    expect(() => parseNpmStart('electron .')).toThrow(/does not run node/);
  });
});
