/**
 * `prestart`: `npm start` runs compiled JavaScript (dist/server, bundled by scripts/build-server.mjs) and serves the built pages
 * (dist/renderer). Each is built here when it is missing or older than its sources (after a
 * `git pull`), and otherwise left alone, so a normal start costs a file-time scan and no compiler.
 *
 * `--check [root]` builds nothing: it exits 1 with one line when a build is missing or older than
 * its sources. The systemd unit runs it before the compiled server (deploy/home-lan-bridge.service),
 * so a service never compiles inside itself and a source file changed on disk never runs unbuilt.
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const checkOnly = process.argv[2] === '--check';
const root = path.resolve(checkOnly && process.argv[3] ? process.argv[3] : path.join(import.meta.dirname, '..'));

/** Newest modification time among the files under `dirs` (skipping tests), 0 when none. */
function newestSource(dirs, exts) {
  let newest = 0;
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      // Tests and their helpers (testing/ folders) are not compiled, so they do not count.
      if (e.isDirectory()) {
        if (e.name !== 'testing') walk(p);
      } else if (exts.some((x) => e.name.endsWith(x)) && !e.name.includes('.test.')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  for (const d of dirs) walk(path.join(root, d));
  return newest;
}

function builtAt(file) {
  try {
    return fs.statSync(path.join(root, file)).mtimeMs;
  } catch {
    return -1;
  }
}

const steps = [
  { output: 'dist/server/headless.js', sources: ['main'], exts: ['.ts'], script: 'build:server', what: 'the services' },
  // The pages import schemas and shared code from main/ too (snapshot-schema, tariff windows, …).
  { output: 'dist/renderer/index.html', sources: ['renderer', 'main'], exts: ['.ts', '.tsx', '.css', '.html'], script: 'build:ui', what: 'the pages' },
];

for (const step of steps) {
  const at = builtAt(step.output);
  if (at >= 0 && at >= newestSource(step.sources, step.exts)) continue;
  if (checkOnly) {
    process.stderr.write(
      `home-lan-bridge: ${step.output} (${step.what}) is ${at < 0 ? 'missing' : 'older than its sources'}; ` +
        `run "npm run build" in ${root} as the service's user, then start again (docs/deployment.md).\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`${at < 0 ? 'Building' : 'Rebuilding'} ${step.what} (npm run ${step.script})…\n`);
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  // The production build whoever asks: run from vitest (NODE_ENV=test) Vite took NODE_ENV from the
  // environment and bundled React's development build, which the e2e specs then tested.
  const env = { ...process.env, NODE_ENV: 'production' };
  const res = spawnSync(npm[0], [...npm[1], 'run', '--silent', step.script], { cwd: root, stdio: 'inherit', env });
  if (res.status !== 0) {
    process.stderr.write(`npm start: "npm run ${step.script}" failed; fix the error above and start again.\n`);
    process.exit(res.status ?? 1);
  }
}
