import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

let cached: { version: string; homepage: string | null } | null = null;

/**
 * This app's version and support address, from the package.json at the repository (or packaged
 * app) root: read once. `0.0.0` and no address when the file cannot be read.
 */
export function appRelease(root = repoRoot): { version: string; homepage: string | null } {
  if (cached && root === repoRoot) return cached;
  let out = { version: '0.0.0', homepage: null as string | null };
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: unknown; homepage?: unknown };
    out = { version: typeof pkg.version === 'string' ? pkg.version : '0.0.0', homepage: typeof pkg.homepage === 'string' && /^https?:\/\//.test(pkg.homepage) ? pkg.homepage : null };
  } catch {
    // A packaging without package.json: the version stays unknown.
  }
  if (root === repoRoot) cached = out;
  return out;
}
