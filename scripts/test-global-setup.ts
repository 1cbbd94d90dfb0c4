import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Vitest's global setup: builds dist/ once, before any test file runs, when it is missing or older
 * than the sources (scripts/ensure-built.mjs, as `npm start` does). Tests that start the compiled
 * server (the bundle, the deployment unit) then find it built instead of building it side by side.
 */
export default function buildOnce(): void {
  const script = path.join(import.meta.dirname, 'ensure-built.mjs');
  const res = spawnSync(process.execPath, [script], { cwd: path.dirname(import.meta.dirname), stdio: 'inherit' });
  if (res.status !== 0) throw new Error('building dist/ for the tests failed (see above)');
}
