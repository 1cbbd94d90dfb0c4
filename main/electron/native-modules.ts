import fs from 'node:fs';
import path from 'node:path';

/**
 * better-sqlite3 is compiled against one runtime's ABI. `node_modules/better-sqlite3` keeps the
 * Node build (tests, `npm start`, the demo); `npm run native:electron` builds a second copy for
 * Electron into `native/electron/<platform>-<arch>/`, and the shell points better-sqlite3 at it
 * (`nativeBinding`). Packaging ships that folder unpacked from the asar.
 */
export const NATIVE_DIR = path.join('native', 'electron');
export const SQLITE_ADDON = 'better_sqlite3.node';
export const STAMP_FILE = 'build.json';

/** What a native build was made for; a build for another Electron, ABI or module version is rebuilt. */
export interface NativeStamp {
  electron: string;
  /** NODE_MODULE_VERSION the addon was built for (`process.versions.modules` under that Electron). */
  abi: string;
  betterSqlite3: string;
  platform: string;
  arch: string;
}

export function nativeFolder(root: string, platform: string = process.platform, arch: string = process.arch): string {
  return path.join(root, NATIVE_DIR, `${platform}-${arch}`);
}

export function readStamp(folder: string): NativeStamp | null {
  try {
    const s = JSON.parse(fs.readFileSync(path.join(folder, STAMP_FILE), 'utf8')) as Partial<NativeStamp>;
    if (typeof s.electron !== 'string' || typeof s.abi !== 'string' || typeof s.betterSqlite3 !== 'string') return null;
    return { electron: s.electron, abi: s.abi, betterSqlite3: s.betterSqlite3, platform: String(s.platform), arch: String(s.arch) };
  } catch {
    return null;
  }
}

/** True when the folder already holds an addon built for exactly this target (the script then skips). */
export function isUpToDate(folder: string, want: NativeStamp): boolean {
  const have = readStamp(folder);
  return !!have && fs.existsSync(path.join(folder, SQLITE_ADDON)) && JSON.stringify(have) === JSON.stringify(want);
}

/** Inside a packaged app, unpacked files live beside the asar archive, not in it. */
export function unpackedPath(p: string): string {
  return p.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/**
 * The Electron-ABI addon for the running Electron, or null with the reason (missing, or built for
 * another ABI: the database then fails to open and the start-up dialog says to run the script).
 */
export function electronSqliteBinding(root: string, runtime: { modules: string; platform?: string; arch?: string }): { file: string | null; reason: string | null } {
  const folder = unpackedPath(nativeFolder(root, runtime.platform, runtime.arch));
  const file = path.join(folder, SQLITE_ADDON);
  if (!fs.existsSync(file)) return { file: null, reason: `no Electron build of better-sqlite3 at ${file} (run "npm run native:electron")` };
  const stamp = readStamp(folder);
  if (stamp && stamp.abi !== runtime.modules) {
    return { file: null, reason: `${file} was built for ABI ${stamp.abi} (Electron ${stamp.electron}), this Electron needs ABI ${runtime.modules} (run "npm run native:electron")` };
  }
  return { file, reason: null };
}
