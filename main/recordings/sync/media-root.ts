import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { invalid } from '../../core/errors.js';
import { repoRoot } from '../../core/paths.js';
import { assertInside, foldersOverlap, isInside } from '../../core/real-path.js';

/**
 * The media root receives files named by a device on the LAN, so it must be a folder meant for
 * media: an existing, writable directory that is not a system folder, the home folder itself or a
 * hidden (dot) folder, and that is not, does not hold and does not sit inside one of the app's own
 * folders (its install folder, its data folder, the folder of any file it keeps). Checked on the
 * path as given and on its real path (symlinks resolved).
 */

/** System folders refused together with everything under them. */
const SYSTEM_TREES_POSIX = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/dev', '/proc', '/sys', '/run', '/System', '/Library', '/private/etc', '/private/var/db'];
/** Top-level folders refused themselves (media usually lives in a folder below them). */
const SYSTEM_FOLDERS_POSIX = ['/', '/var', '/var/lib', '/home', '/Users', '/media', '/mnt', '/opt', '/srv', '/tmp', '/root', '/private', '/private/var', '/Volumes'];
const SYSTEM_TREES_WIN = ['c:\\windows', 'c:\\program files', 'c:\\program files (x86)', 'c:\\programdata', 'c:\\$recycle.bin', 'c:\\system volume information'];

function refusal(p: string, home: string, platform: NodeJS.Platform): string | null {
  if (platform === 'win32') {
    const w = path.win32.resolve(p).toLowerCase().replace(/\\+$/, '');
    if (/^[a-z]:$/.test(w)) return 'is the root of a drive';
    if (SYSTEM_TREES_WIN.some((s) => w === s || w.startsWith(`${s}\\`))) return 'is a system folder';
    if (w === path.win32.resolve(home).toLowerCase()) return 'is the home folder itself';
    if (w.split('\\').some((seg) => seg.startsWith('.'))) return 'is a hidden folder';
    return null;
  }
  const r = path.posix.resolve(p).replace(/\/+$/, '') || '/';
  if (SYSTEM_FOLDERS_POSIX.includes(r)) return 'is a system folder';
  if (SYSTEM_TREES_POSIX.some((s) => r === s || r.startsWith(`${s}/`))) return 'is a system folder';
  if (r === path.posix.resolve(home)) return 'is the home folder itself';
  if (r.split('/').some((seg) => seg.startsWith('.'))) return 'is a hidden folder';
  return null;
}

export interface MediaRootCheckOptions {
  home?: string;
  platform?: NodeJS.Platform;
  /**
   * The app's own folders (data folder, the folders of its state file, settings and detector.ini);
   * its install folder is always added.
   */
  appFolders?: readonly string[];
}

/** The app's folders a media root must keep clear of: the install folder and those given. */
export const appFoldersOf = (given: readonly string[] = []): string[] => [...new Set([repoRoot, ...given.map((f) => path.resolve(f))])];

export const APP_FOLDER_REFUSAL = "is, holds or sits inside one of the app's own folders (its install folder, data folder or the folder of its settings, database or detector.ini): choose a folder meant for recordings";

/**
 * Why `root` cannot be the media root, or null when it can. Checks the path as given and its real
 * path: a symlink from an innocent name to `/etc` is refused too.
 */
export function mediaRootProblem(root: string, opts: MediaRootCheckOptions = {}): string | null {
  const home = opts.home ?? os.homedir();
  const platform = opts.platform ?? process.platform;
  if (!(platform === 'win32' ? path.win32 : path.posix).isAbsolute(root)) return 'must be an absolute path';
  const named = refusal(root, home, platform);
  if (named) return `${named} (choose a folder meant for recordings)`;
  if (appFoldersOf(opts.appFolders).some((f) => foldersOverlap(root, f))) return APP_FOLDER_REFUSAL;
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch {
    return 'does not exist (create the folder first)';
  }
  const resolved = refusal(real, home, platform);
  if (resolved) return `leads to ${real}, which ${resolved} (choose a folder meant for recordings)`;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(real);
  } catch {
    return 'cannot be read';
  }
  if (!stat.isDirectory()) return 'is not a directory';
  try {
    fs.accessSync(real, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    return 'is not writable by the service';
  }
  return null;
}

/** Throws a 400 naming `field` (in words: `label`) when `root` cannot be the media root. */
export function checkMediaRoot(root: string, appFolders: readonly string[], field = 'media_root', label = 'Media folder'): void {
  const problem = mediaRootProblem(root, { appFolders });
  if (problem) throw invalid(field, problem, label);
}

/**
 * Creates `folder` (inside `root`) one segment at a time from the root's real path, refusing any
 * segment that is a symlink leading outside the root, before anything is created beyond it.
 * Returns the folder's real path. Throws with a message for the recording row.
 */
export function prepareFolderInside(root: string, folder: string, appFolders: readonly string[]): string {
  const problem = mediaRootProblem(root, { appFolders });
  if (problem) throw new Error(`the media root ${root} ${problem}`);
  const realRoot = fs.realpathSync(root);
  const rel = path.relative(path.resolve(root), path.resolve(folder));
  if (!isInside(root, folder)) throw new Error(`${folder} is outside the media root`);
  let current = realRoot;
  for (const seg of rel.split(path.sep).filter(Boolean)) {
    const next = path.join(current, seg);
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(next);
    } catch {
      st = undefined;
    }
    if (!st) {
      try {
        fs.mkdirSync(next);
        current = next;
        continue;
      } catch (err) {
        // Created meanwhile by someone else: check what is there now.
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        st = fs.lstatSync(next);
      }
    }
    const real = st.isSymbolicLink() ? fs.realpathSync(next) : next;
    if (!isInside(realRoot, real)) throw new Error(`${next} leads outside the media root (to ${real})`);
    if (!fs.statSync(real).isDirectory()) throw new Error(`${next} is not a folder`);
    current = real;
  }
  return current;
}

/** Refuses to write through `file` when it is a symlink (a file left in the media root pointing elsewhere). */
export function refuseSymlinkFile(file: string): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return;
  }
  if (st.isSymbolicLink()) throw new Error(`${file} is a symbolic link: refused`);
}

/**
 * Throws unless `file` (a recording, its `.partial` or `.orig`, a work folder) really lies inside
 * the media root right now: called just before each write, rename or delete of the sync's files.
 */
export function assertInMediaRoot(root: string, file: string): void {
  assertInside(root, file, 'the media root');
}
