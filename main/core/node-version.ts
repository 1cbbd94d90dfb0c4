/**
 * The Node the services run on: 24.11 or later (package.json `engines`, checked against it by
 * node-version.test.ts). On an older Node the SQLite addon (better-sqlite3 13, Node-API 10) does
 * not load: Node 20 crashes with a segmentation fault when it tries, so a start checks first.
 */
export const REQUIRED_NODE = '24.11.0';

const parts = (v: string) => v.replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);

/** Null when `version` (such as process.versions.node) is REQUIRED_NODE or later; else what to do, in words. */
export function nodeVersionProblem(version: string, execPath = ''): string | null {
  const have = parts(version);
  const need = parts(REQUIRED_NODE);
  for (let i = 0; i < need.length; i++) {
    if ((have[i] ?? 0) > need[i]!) return null;
    if ((have[i] ?? 0) < need[i]!) {
      return [
        `home-lan-bridge runs on Node ${REQUIRED_NODE.replace(/\.0$/, '')} or later; this is Node ${version.replace(/^v?/, 'v')}${execPath ? ` (${execPath})` : ''}.`,
        'On Linux, `source scripts/provision-node.sh` in the repository puts Node 24 first on PATH for this shell',
        '(then run `npm ci` again, so native modules are built for it); elsewhere install Node 24 LTS from nodejs.org.',
      ].join('\n');
    }
  }
  return null;
}
