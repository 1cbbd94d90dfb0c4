import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a path really leads, and whether that lies inside a folder: the one check every write,
 * rename or delete of the app's files and every read of an import goes through (DESIGN rule 12).
 */

/**
 * True when `target` is `root` itself or inside it (lexically, after resolving). Only `..` as a
 * whole first segment leaves the root: a folder named `..foo` is inside.
 */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(target));
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

/**
 * The real path of `target` now: symlinks resolved all the way. A name that does not exist yet is
 * its parent folder's real path plus the name (the parent resolved the same way). Null when it
 * cannot be known: a symlink that leads nowhere, or a folder that cannot be read.
 */
export function realPathOf(target: string): string | null {
  const abs = path.resolve(target);
  try {
    return fs.realpathSync(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null;
  }
  // Missing: a dangling symlink leads somewhere we cannot see, so it is no answer.
  if (fs.lstatSync(abs, { throwIfNoEntry: false })) return null;
  const parent = path.dirname(abs);
  if (parent === abs) return null;
  const realParent = realPathOf(parent);
  return realParent === null ? null : path.join(realParent, path.basename(abs));
}

/** True when `target` really lies inside `root` (both resolved now; `root` itself counts). */
export function realPathInside(root: string, target: string): boolean {
  const realRoot = realPathOf(root);
  const real = realPathOf(target);
  return realRoot !== null && real !== null && isInside(realRoot, real);
}

/** Thrown by `assertInside`: `target` leads outside the folder it must stay in. */
export class OutsideFolder extends Error {
  constructor(readonly target: string, what: string) {
    super(`${target} leads outside ${what}: refused`);
    this.name = 'OutsideFolder';
  }
}

/**
 * Throws `OutsideFolder` unless `target` really lies inside `root` at this moment. `what` names the
 * folder in the message ("the media root").
 */
export function assertInside(root: string, target: string, what: string): void {
  if (!realPathInside(root, target)) throw new OutsideFolder(target, what);
}

/**
 * True when one folder is, contains or sits inside the other, compared as given and by real path
 * (a symlink to the app's folder overlaps it too).
 */
export function foldersOverlap(a: string, b: string): boolean {
  if (isInside(a, b) || isInside(b, a)) return true;
  const ra = realPathOf(a);
  const rb = realPathOf(b);
  return ra !== null && rb !== null && (isInside(ra, rb) || isInside(rb, ra));
}
