import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { realPathInside } from '../../core/real-path.js';

/** The hidden folder next to a recording (same filesystem) holding every intermediate of a scan or cut. */
export const WORK_DIR_NAME = '.adcut-work';

export const workRootOf = (recording: string) => path.join(path.dirname(recording), WORK_DIR_NAME);

/**
 * Runs `fn` with a private folder under `.adcut-work` next to the recording (one per run, so two
 * recordings of one folder can be processed at once) and removes it on every exit path, the shared
 * `.adcut-work` too once it is empty.
 */
export async function withWorkDir<T>(recording: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const root = workRootOf(recording);
  const dir = path.join(root, crypto.randomBytes(6).toString('hex'));
  // One call creates both levels: another run removing the emptied root in between cannot race it.
  fs.mkdirSync(dir, { recursive: true });
  try {
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.rmdirSync(root);
    } catch {
      // another run still uses it, or it is already gone
    }
  }
}

/**
 * At start (nothing runs yet): removes `.adcut-work` folders a killed process left in these folders,
 * those whose real path lies inside `mediaRoot` only.
 */
export function removeStaleWorkDirs(folders: Iterable<string>, mediaRoot: string): number {
  let n = 0;
  for (const folder of new Set(folders)) {
    const root = path.join(folder, WORK_DIR_NAME);
    try {
      if (!fs.existsSync(root) || !realPathInside(mediaRoot, root)) continue;
      fs.rmSync(root, { recursive: true, force: true });
      n++;
    } catch {
      // unreadable folder: the next start tries again
    }
  }
  return n;
}
