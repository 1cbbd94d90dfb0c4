/**
 * `npm run native:electron`: puts better-sqlite3's addon for the tray app at
 * native/electron/<platform>-<arch>/better_sqlite3.node with a build.json stamp, where the shell and
 * the packaged app look for it (main/electron/native-modules.ts). Runs before `npm run app` and
 * `npm run dist`; skips when the file there already matches.
 *
 * Since better-sqlite3 13 the addon is a Node-API module: its prebuilt binary (shipped inside the
 * npm package, one per platform-arch) imports only `napi_*` functions from the runtime, none of V8's
 * or Node's C++ symbols, so the same file loads in Node 24 and in Electron's Node whatever their
 * NODE_MODULE_VERSION. Nothing is compiled and nothing is downloaded: this copies the package's
 * prebuild for the target and stamps it with the installed Electron, as the shell expects.
 *
 * Options: --arch=<x64|arm64> (default: this machine's; any arch the package ships), --force.
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
const sqliteVersion = readJson(path.join(sqliteDir, 'package.json')).version;
if (Number(sqliteVersion.split('.')[0]) < 13) {
  console.error(`native:electron: better-sqlite3 ${sqliteVersion} is not a Node-API build (13+ is); run "npm install"`);
  process.exit(1);
}
const want: NativeStamp = {
  electron: readJson(path.join(electronDir, 'package.json')).version,
  abi: fs.readFileSync(path.join(electronDir, 'abi_version'), 'utf8').trim(),
  betterSqlite3: sqliteVersion,
  platform: process.platform,
  arch,
};
const folder = nativeFolder(root, process.platform, arch);

if (!force && isUpToDate(folder, want)) {
  console.log(`native:electron: ${path.relative(root, folder)} is up to date (better-sqlite3 ${want.betterSqlite3}, Node-API; Electron ${want.electron})`);
  process.exit(0);
}

// The package's own prebuild for the target (musl Linux is not an Electron target).
const prebuild = path.join(sqliteDir, 'prebuilds', `${process.platform}-${arch}.node`);
if (!fs.existsSync(prebuild)) {
  console.error(`native:electron: better-sqlite3 ${sqliteVersion} ships no prebuild for ${process.platform}-${arch} (${path.relative(root, prebuild)})`);
  process.exit(1);
}
fs.mkdirSync(folder, { recursive: true });
fs.copyFileSync(prebuild, path.join(folder, SQLITE_ADDON));
fs.writeFileSync(path.join(folder, STAMP_FILE), `${JSON.stringify(want, null, 2)}\n`);
console.log(`native:electron: wrote ${path.relative(root, path.join(folder, SQLITE_ADDON))} (better-sqlite3 ${want.betterSqlite3} Node-API prebuild; loads in Electron ${want.electron} as in Node)`);
