import fs from 'node:fs';
import path from 'node:path';
import { assertInside, realPathInside } from '../../core/real-path.js';

/**
 * Mark's chaptered copy "in place of" the recording: the `.mkv` takes the recording's place in the
 * library and the untouched `.ts` moves (a rename: same bytes, same inode) into a hidden folder
 * beside it. Media servers skip that folder: Jellyfin ignores every dot-folder (its
 * `IgnorePatterns`, "Unix hidden files and directories") and an empty `.ignore` in a folder; Plex
 * skips a folder whose `.plexignore` says `*`; Emby (4.9 and later) one whose `.embyignore` says
 * `*` (docs/recordings-api.md, *Mark*, cites each). The name is not `.orig`: start-up recovery and housekeeping treat
 * `<file>.orig` as a cut's disposable original, and nothing removes what lies in this folder.
 */
export const ORIGINALS_DIR_NAME = '.recording-originals';

/** The ignore files written into the originals folder, each telling one media server to skip it. */
const IGNORE_FILES: ReadonlyArray<[string, string]> = [
  ['.plexignore', '*\n'],
  ['.embyignore', '*\n'],
  ['.ignore', ''],
];

/** Where the original of `file` is kept while the chaptered copy stands in for it. */
export const keptPathOf = (file: string) => path.join(path.dirname(file), ORIGINALS_DIR_NAME, path.basename(file));

/** Thrown when a move would overwrite a file that is there already: nothing is moved. */
export class MoveRefused extends Error {}

/**
 * Moves `from` to `to` without ever overwriting: a hard link to the new name (which fails on an
 * existing name), then the old name goes. Killed in between, both names hold the same bytes (one
 * inode); `finishInterruptedMoves` completes it at the next start. Where the filesystem has no hard
 * links, a rename after a last look. Both paths must really lie inside `mediaRoot`.
 */
export function moveNoClobber(from: string, to: string, mediaRoot: string, afterLink?: () => void): void {
  assertInside(mediaRoot, from, 'the media root');
  assertInside(mediaRoot, to, 'the media root');
  const refused = () => new MoveRefused(`${path.basename(to)} already exists in ${path.dirname(to)}: left alone`);
  try {
    fs.linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw refused();
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    if (fs.existsSync(to)) throw refused();
    fs.renameSync(from, to);
    return;
  }
  afterLink?.();
  fs.unlinkSync(from);
}

/** The hidden originals folder beside `file`, with the ignore files (written once; existing ones are left as they are). */
export function ensureOriginalsDir(file: string, mediaRoot: string): void {
  const dir = path.dirname(keptPathOf(file));
  assertInside(mediaRoot, dir, 'the media root');
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of IGNORE_FILES) {
    try {
      fs.writeFileSync(path.join(dir, name), text, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** Moves the recording into the originals folder (the chaptered copy is already beside it). Returns where it went. */
export function keepOriginalAside(file: string, mediaRoot: string, afterLink?: () => void): string {
  const kept = keptPathOf(file);
  ensureOriginalsDir(file, mediaRoot);
  moveNoClobber(file, kept, mediaRoot, afterLink);
  return kept;
}

/** Puts the kept original back at the recording's path (never over a file there). */
export function bringOriginalBack(file: string, kept: string, mediaRoot: string): void {
  moveNoClobber(kept, file, mediaRoot);
  try {
    // The folder goes once only its ignore files are left (another recording's original keeps it).
    const dir = path.dirname(kept);
    const rest = fs.readdirSync(dir).filter((n) => !IGNORE_FILES.some(([name]) => name === n));
    if (rest.length === 0) {
      for (const [name] of IGNORE_FILES) fs.rmSync(path.join(dir, name), { force: true });
      fs.rmdirSync(dir);
    }
  } catch {
    // left for next time
  }
}

/**
 * Start-up: a move into the originals folder killed between its link and its unlink left the
 * original under both names (one inode): the library name goes, so the library shows only the
 * chaptered copy. Nothing else is removed: a recording file that is not the same inode as its kept
 * original stays, and a kept original is never removed. Returns the paths completed.
 */
export function finishInterruptedMoves(rows: Iterable<{ file_path: string | null; original_path?: string | null }>, mediaRoot: string, onError: (file: string, err: unknown) => void = () => undefined): string[] {
  const done: string[] = [];
  for (const r of rows) {
    if (!r.file_path || !r.original_path) continue;
    try {
      const a = fs.lstatSync(r.file_path, { throwIfNoEntry: false });
      const b = fs.lstatSync(r.original_path, { throwIfNoEntry: false });
      if (!a || !b || !a.isFile() || a.ino !== b.ino || a.dev !== b.dev) continue;
      if (!realPathInside(mediaRoot, r.file_path) || !realPathInside(mediaRoot, r.original_path)) continue;
      fs.unlinkSync(r.file_path);
      done.push(r.file_path);
    } catch (err) {
      onError(r.file_path, err);
    }
  }
  return done;
}
