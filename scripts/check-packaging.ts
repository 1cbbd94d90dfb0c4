/**
 * `npm run dist:check` (Linux): packs the app into an unpacked folder with electron-builder
 * (`--linux dir`) against a stub Electron, with every download blocked, and checks what landed in
 * the asar and beside it. It needs no network and no Electron binary, so it runs where `npm run dist`
 * cannot. Run `npm run build` first (and `npm run native:electron` to see the addon unpacked).
 *
 * Options: --project=<dir> (default: this repository).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..');
const project = path.resolve(process.argv.find((a) => a.startsWith('--project='))?.slice('--project='.length) ?? repo);
const fail = (msg: string): never => {
  console.error(`dist:check: ${msg}`);
  process.exit(1);
};
if (process.platform !== 'linux') fail('runs on Linux only (it stubs the Linux Electron binary)');
for (const f of ['dist/main/electron/main.js', 'dist/preload/index.cjs', 'dist/renderer/index.html']) {
  if (!fs.existsSync(path.join(project, f))) fail(`${f} is missing: run "npm run build" first`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dist-check-'));
try {
  const stub = path.join(work, 'electron-stub');
  fs.mkdirSync(path.join(stub, 'resources'), { recursive: true });
  fs.writeFileSync(path.join(stub, 'electron'), '#!/bin/sh\necho "electron stub"\n', { mode: 0o755 });
  const out = path.join(work, 'out');
  // Any download attempt goes to a closed loopback port and fails instead of fetching.
  const blocked = 'http://127.0.0.1:9';
  const res = spawnSync(
    path.join(project, 'node_modules', '.bin', 'electron-builder'),
    ['--linux', 'dir', `--projectDir=${project}`, `-c.electronDist=${stub}`, `-c.directories.output=${out}`],
    { stdio: 'inherit', env: { ...process.env, HTTPS_PROXY: blocked, HTTP_PROXY: blocked, https_proxy: blocked, http_proxy: blocked, ELECTRON_BUILDER_CACHE: path.join(work, 'cache') } },
  );
  if (res.status !== 0) fail(`electron-builder exited with ${res.status}`);

  const resources = path.join(out, 'linux-unpacked', 'resources');
  const asar = createRequire(path.join(project, 'package.json'))('@electron/asar') as { listPackage(file: string): string[] };
  const files = new Set(asar.listPackage(path.join(resources, 'app.asar')).map((p) => p.replaceAll('\\', '/')));
  const problems: string[] = [];
  for (const f of ['/package.json', '/dist/main/electron/main.js', '/dist/preload/index.cjs', '/dist/renderer/index.html', '/assets/tray.png', '/assets/detector.ini', '/node_modules/better-sqlite3/lib/index.js', '/node_modules/fastify/package.json']) {
    if (!files.has(f)) problems.push(`missing in app.asar: ${f}`);
  }
  for (const dev of ['electron', 'electron-builder', 'vitest', 'typescript', '@playwright', 'react', 'vite']) {
    if (files.has(`/node_modules/${dev}`)) problems.push(`a development package is packed: ${dev}`);
  }
  for (const f of files) if (f.startsWith('/dist/') && (f.endsWith('.test.js') || f.endsWith('.map'))) problems.push(`a test or source map of ours is packed: ${f}`);
  const addon = path.join('native', 'electron', `linux-${process.arch}`, 'better_sqlite3.node');
  if (fs.existsSync(path.join(project, addon)) && !fs.existsSync(path.join(resources, 'app.asar.unpacked', addon))) problems.push(`${addon} is not unpacked from the asar`);
  const meta = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')) as { main: string };
  if (!files.has(`/${meta.main}`)) problems.push(`the entry ${meta.main} is not in the asar`);

  if (problems.length) fail(`\n  ${problems.join('\n  ')}`);
  console.log(`dist:check: ok — ${files.size} entries in app.asar; entry, preload, pages, assets and production modules present; no development packages${fs.existsSync(path.join(project, addon)) ? `; ${addon} unpacked` : ` (no ${addon}: run "npm run native:electron" to include it)`}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
