import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, REQUIRED_NODE } from './node-version.js';

const repo = path.resolve(import.meta.dirname, '..', '..');

describe('the Node the services need', () => {
  it('is the one package.json declares, and the provisioned Node (.node-version) has it', () => {
    const engines = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`>=${REQUIRED_NODE.replace(/\.0$/, '')}`);
    expect(nodeVersionProblem(fs.readFileSync(path.join(repo, '.node-version'), 'utf8').trim())).toBeNull();
    expect(nodeVersionProblem(process.versions.node)).toBeNull();
  });

  it('turns away Node 20, 22 and 24 before 24.11 with what to do; takes 24.11 and later', () => {
    const old = nodeVersionProblem('20.20.2', '/usr/bin/node');
    expect(old).toContain('runs on Node 24.11 or later; this is Node v20.20.2 (/usr/bin/node)');
    expect(old).toContain('source scripts/provision-node.sh');
    for (const v of ['v22.12.0', '24.10.0', '24.0.0', '18.20.8']) expect(nodeVersionProblem(v)).not.toBeNull();
    for (const v of ['24.11.0', 'v24.21.0', '24.100.1', '25.0.0', '26.1.0']) expect(nodeVersionProblem(v)).toBeNull();
  });
});
