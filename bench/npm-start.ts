/**
 * What `npm start` runs (package.json: `exec env VAR=value … node <flags> <script>`), read from
 * package.json so a benchmark starts its process the way users' installs do (the systemd unit uses
 * the same, deploy/deployment.test.ts checks that): the environment it sets, the node flags before
 * the script, and the script.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface NpmStart {
  /** `VAR=value` words, as an environment. */
  env: Record<string, string>;
  /** The node options before the script (`--max-semi-space-size=1`, …). */
  nodeFlags: string[];
  /** The arguments after `node`: the flags, then the script. */
  argv: string[];
}

export function parseNpmStart(script: string): NpmStart {
  const words = script.replace(/^exec\s+(env\s+)?/, '').trim().split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0) throw new Error(`npm start does not run node: ${script}`);
  const env = Object.fromEntries(words.slice(0, node).filter((w) => /^[A-Z_]+=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  const argv = words.slice(node + 1);
  return { env, argv, nodeFlags: argv.filter((w) => w.startsWith('--')) };
}

/** `npm start` of the checkout at `repo`. */
export function npmStart(repo: string): NpmStart {
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return parseNpmStart(pkg.scripts.start);
}
