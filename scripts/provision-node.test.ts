import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..');
const wanted = fs.readFileSync(path.join(repo, '.node-version'), 'utf8').trim().replace(/^v/, '');

/**
 * The provisioning script as `.ci/run` and the README use it. Runs only where `.runtime/` already
 * holds the unpacked Node (every machine that ran the script once, CI included): the test must not
 * reach the registry.
 */
const provisioned = fs.existsSync(path.join(repo, '.runtime', `node-v${wanted}-linux-${process.arch}`));
if (!provisioned) console.warn(`provision-node test skipped: .runtime/ has no Node ${wanted} yet (run: source scripts/provision-node.sh)`);

describe('scripts/provision-node.sh', () => {
  it.skipIf(!provisioned)('puts its Node first on PATH and points node-gyp at its headers, with no npm warning about it', () => {
    // A shell that has not sourced it yet (vitest itself may run inside one that has).
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.npm_config_nodedir;
    delete env.npm_package_config_node_gyp_nodedir;
    const r = spawnSync('bash', ['-c', 'eval "$(scripts/provision-node.sh)" && node -v && printf "%s\\n" "$npm_package_config_node_gyp_nodedir" && npm config get omit'], { cwd: repo, env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const [version, nodedir] = r.stdout.trim().split('\n');
    expect(version).toBe(`v${wanted}`);
    // node-gyp compiles against <nodedir>/include/node: Node-API's header must be there.
    expect(fs.existsSync(path.join(nodedir!, 'include', 'node', 'node_api.h'))).toBe(true);
    expect(r.stderr).not.toMatch(/Unknown env config/);
  });
});
