import fs from 'node:fs';
import { assertInside, realPathInside } from '../../core/real-path.js';

/** Where the original of a cut recording is kept: `<file>.ts.orig`. */
export const origPathOf = (file: string) => `${file}.orig`;

/**
 * Step 5 of the cut: the original is renamed to `<file>.orig`, then the verified output to the
 * original name; if that second rename fails, the first is rolled back. When `.orig` already holds
 * the untouched original (a re-cut, which reads from it), the output simply replaces the file in one
 * atomic rename and `.orig` stays as it is. `betweenRenames` is a test seam (a crash at that instant
 * is what start-up recovery repairs). With `mediaRoot`, the three paths must really lie inside it at
 * that moment.
 */
export function swapIntoPlace(file: string, output: string, betweenRenames?: () => void, mediaRoot?: string): void {
  const orig = origPathOf(file);
  if (mediaRoot !== undefined) for (const p of [file, orig, output]) assertInside(mediaRoot, p, 'the media root');
  if (fs.existsSync(orig)) {
    fs.renameSync(output, file);
    return;
  }
  fs.renameSync(file, orig);
  try {
    betweenRenames?.();
    fs.renameSync(output, file);
  } catch (err) {
    fs.renameSync(orig, file);
    throw err;
  }
}

/**
 * Step 6, at start: a recording whose file is missing while its `.orig` exists (a process killed
 * between the two renames of a swap) gets its original back. Returns the paths restored. A file
 * whose real path is not inside `mediaRoot` is left alone (reported through `onError`).
 */
export function recoverOriginals(files: Iterable<string>, mediaRoot: string, onError: (file: string, err: unknown) => void = () => undefined): string[] {
  const restored: string[] = [];
  for (const file of files) {
    const orig = origPathOf(file);
    if (fs.existsSync(file) || !fs.existsSync(orig)) continue;
    if (!realPathInside(mediaRoot, orig) || !realPathInside(mediaRoot, file)) {
      onError(file, new Error(`${file} leads outside the media root: left alone`));
      continue;
    }
    try {
      fs.renameSync(orig, file);
      restored.push(file);
    } catch (err) {
      onError(file, err);
    }
  }
  return restored;
}

/**
 * Step 7, sync housekeeping: deletes the `.orig` of recordings processed before `before` (epoch ms).
 * The caller leaves out rows being scanned (a re-scan reads the `.orig`). Only files whose real path
 * lies inside `mediaRoot` are deleted.
 */
export function pruneOriginals(rows: Iterable<{ file_path: string | null; ad_processed_at: number | null }>, before: number, mediaRoot: string): string[] {
  const removed: string[] = [];
  for (const r of rows) {
    if (!r.file_path || r.ad_processed_at === null || r.ad_processed_at >= before) continue;
    const orig = origPathOf(r.file_path);
    // Never delete the only copy: the cut file must be in place.
    if (!fs.existsSync(orig) || !fs.existsSync(r.file_path) || !realPathInside(mediaRoot, orig)) continue;
    fs.rmSync(orig, { force: true });
    removed.push(orig);
  }
  return removed;
}
