import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../main/core/paths.js';

/**
 * The pages vitest's global setup builds (scripts/ensure-built.mjs, run with vitest's NODE_ENV=test)
 * are the ones the e2e specs then load: they must be the production build users get from
 * `npm start` and `npm run build`, not React's development build.
 */
describe('the built pages', () => {
  it('carry React’s production build, whoever ran the build', () => {
    const assets = path.join(repoRoot, 'dist', 'renderer', 'assets');
    const scripts = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const dev = scripts.filter((f) => fs.readFileSync(path.join(assets, f), 'utf8').includes('jsxDEV'));
    expect(dev).toEqual([]);
  });
});
