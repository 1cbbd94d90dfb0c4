/**
 * `npm run native:electron`: builds better-sqlite3 for the installed Electron's ABI into
 * native/electron/<platform>-<arch>/better_sqlite3.node, leaving node_modules (Node's ABI, used by
 * the tests and `npm start`) untouched. Runs before `npm run app` and `npm run dist`; skips when the
 * build there already matches. Needs the network the first time (a prebuilt binary, or Electron's
 * headers to compile) and Node 22.12+ (@electron/rebuild's requirement).
 *
 * Options: --arch=<arch> (default: this machine's), --force.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isUpToDate, nativeFolder, SQLITE_ADDON, STAMP_FILE, type NativeStamp } from '../main/electron/native-modules.js';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const arch = args.find((a) => a.startsWith('--arch='))?.slice('--arch='.length) ?? process.arch;
const force = args.includes('--force');

const readJson = (p: string) => JSON.parse(fs.readFileSync(p, 'utf8')) as { version: string };
const electronDir = path.join(root, 'node_modules', 'electron');
const sqliteDir = path.join(root, 'node_modules', 'better-sqlite3');
const want: NativeStamp = {
  electron: readJson(path.join(electronDir, 'package.json')).version,
  abi: fs.readFileSync(path.join(electronDir, 'abi_version'), 'utf8').trim(),
  betterSqlite3: readJson(path.join(sqliteDir, 'package.json')).version,
  platform: process.platform,
  arch,
};
const folder = nativeFolder(root, process.platform, arch);

if (!force && isUpToDate(folder, want)) {
  console.log(`native:electron: ${path.relative(root, folder)} is up to date (Electron ${want.electron}, ABI ${want.abi})`);
  process.exit(0);
}

// Rebuild a copy of the package in a staging folder, never the copy in node_modules. The folder is
// inside the project so @electron/rebuild, walking up from the module, finds prebuild-install.
fs.mkdirSync(path.join(root, 'native'), { recursive: true });
const stage = fs.mkdtempSync(path.join(root, 'native', '.stage-'));
try {
  const stagedModule = path.join(stage, 'node_modules', 'better-sqlite3');
  fs.cpSync(sqliteDir, stagedModule, { recursive: true, filter: (src) => !src.startsWith(path.join(sqliteDir, 'build')) });
  fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify({ name: 'electron-native-stage', private: true, dependencies: { 'better-sqlite3': want.betterSqlite3 } }));
  const { rebuild } = await import('@electron/rebuild');
  console.log(`native:electron: building better-sqlite3 ${want.betterSqlite3} for Electron ${want.electron} (ABI ${want.abi}, ${process.platform}-${arch})…`);
  await rebuild({ buildPath: stage, projectRootPath: root, electronVersion: want.electron, arch, onlyModules: ['better-sqlite3'], force: true, mode: 'sequential' });
  const built = path.join(stagedModule, 'build', 'Release', SQLITE_ADDON);
  if (!fs.existsSync(built)) throw new Error(`the rebuild left no ${SQLITE_ADDON} in ${path.dirname(built)}`);
  fs.mkdirSync(folder, { recursive: true });
  fs.copyFileSync(built, path.join(folder, SQLITE_ADDON));
  fs.writeFileSync(path.join(folder, STAMP_FILE), `${JSON.stringify(want, null, 2)}\n`);
  console.log(`native:electron: wrote ${path.relative(root, path.join(folder, SQLITE_ADDON))}`);
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
