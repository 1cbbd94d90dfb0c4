import { nodeVersionProblem } from './node-version.js';

/**
 * Imported first by the entries that load the SQLite addon (headless, demo): on a Node older than
 * the services need, they stop here with what to do, before the addon would crash the process.
 */
const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
