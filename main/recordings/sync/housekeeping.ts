import fs from 'node:fs';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { realPathInside } from '../../core/real-path.js';
import type { RecordingsStore } from '../store/recordings-store.js';
import { partialPathOf } from './item-pipeline.js';
import type { FlightGuard } from './single-flight.js';

export interface HousekeepingDeps {
  recordings: RecordingsStore;
  guard: FlightGuard;
  clock: Clock;
  logger: Logger;
}

export const PARTIAL_REMOVED = 'no longer on the box: its partial download was removed';

/**
 * Removes `.partial` files of items that will never resume, so a full disk heals by itself:
 * - a row that is `done` (a leftover next to the finished file);
 * - when `seen` is given (a sync that browsed every box and every followed show completely): a row
 *   not `done` whose recording the box no longer lists in a followed show.
 * Rows held by a pipeline are left alone, and so is any file whose real path (symlinks resolved)
 * is not inside the media root now (a row imported or left pointing elsewhere). Returns how many
 * files went.
 */
export function removeStalePartials(deps: HousekeepingDeps, mediaRoot: string, seen: ReadonlySet<string> | null): number {
  let removed = 0;
  for (const row of deps.recordings.list()) {
    if (!row.file_path) continue;
    const partial = partialPathOf(row.file_path);
    if (!fs.existsSync(partial)) continue;
    const stale = row.status === 'done' || (seen !== null && !seen.has(row.box_id));
    if (!stale || deps.guard.isBusy(row.box_id)) continue;
    if (!realPathInside(mediaRoot, partial)) {
      deps.logger.warn({ box_id: row.box_id, file: partial }, 'housekeeping: a partial file outside the media root is left alone');
      continue;
    }
    try {
      fs.rmSync(partial, { force: true });
      removed++;
      if (row.status !== 'done') deps.recordings.noteError(row.box_id, PARTIAL_REMOVED, deps.clock.now());
    } catch (err) {
      deps.logger.warn({ err, file: partial }, 'housekeeping: cannot remove a stale partial file');
    }
  }
  return removed;
}
