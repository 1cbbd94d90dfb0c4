import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.js';
import { ownerOnlyError } from '../../core/owner-only.js';
import { parseInput } from '../../core/validate.js';
import { refuseGuestPatch } from '../owner-settings.js';
import { settingDefs } from '../settings.js';
import { formatBytes, statfsFreeBytes, type FreeSpaceProbe } from '../sync/disk-space.js';
import { mediaRootProblem } from '../sync/media-root.js';
import type { RouteContext } from './context.js';

/** Per client: the storage test touches the disk, the reset rewrites the state file. */
export const MAINTENANCE_LIMITS = { storageTest: { max: 20, timeWindow: 60_000 }, reset: { max: 6, timeWindow: 60_000 } } as const;

/** The words the reset asks to be typed, so a stray click or a script without them clears nothing. */
export const RESET_CONFIRMATION = 'RESET';

const storageBody = z.object({ path: z.string().min(1).max(1024).optional() }).strict();
const resetBody = z.object({ confirm: z.string().max(64) }).strict();

export interface StorageTest {
  path: string;
  exists: boolean;
  directory: boolean;
  writable: boolean;
  free_bytes: number | null;
  /** Null when the folder can be the media root; else why not, in plain words. */
  problem: string | null;
  message: string;
}

/**
 * Whether `dir` can hold recordings: it exists, is a folder, a file can be written and removed in it
 * (a real write, not a permission guess), how much space is free, and the media root's own rules.
 */
export function testStorage(dir: string, freeSpace: FreeSpaceProbe, appFolders: readonly string[] = []): StorageTest {
  const problem = mediaRootProblem(dir, { appFolders });
  let exists = false;
  let directory = false;
  try {
    directory = fs.statSync(dir).isDirectory();
    exists = true;
  } catch {
    exists = false;
  }
  let writable = false;
  if (directory) {
    const probe = path.join(dir, `.hlb-write-test-${crypto.randomBytes(6).toString('hex')}`);
    try {
      fs.writeFileSync(probe, 'ok', { flag: 'wx' });
      writable = true;
    } catch {
      writable = false;
    } finally {
      fs.rmSync(probe, { force: true });
    }
  }
  let free: number | null = null;
  if (directory) {
    try {
      free = freeSpace(dir);
    } catch {
      free = null;
    }
  }
  const message = !exists
    ? `${dir} does not exist. Create the folder first.`
    : !directory
      ? `${dir} is a file, not a folder.`
      : !writable
        ? `${dir} exists but the service cannot write to it.`
        : problem
          ? `${dir} is writable, but it ${problem}.`
          : `${dir} is ready: writable${free === null ? '' : `, ${formatBytes(free)} free`}.`;
  return { path: dir, exists, directory, writable, free_bytes: free, problem: writable ? problem : (problem ?? 'is not writable by the service'), message };
}

/**
 * `POST /api/storage/test` ({ path? }: the media root by default): exists, writable, free space.
 * `POST /api/reset` ({ confirm: "RESET" }): forgets the followed shows, the recordings list (downloads
 * and tombstones), the sync history and the stored settings (back to the environment seeds and
 * defaults). Files in the media folder stay. Refused (409) while a sync or an ad scan runs.
 * Both change nothing without the owner's session when a passcode is set (the owner gate).
 */
export function registerMaintenanceRoutes(app: FastifyInstance, ctx: RouteContext, deps: { freeSpace?: FreeSpaceProbe } = {}): void {
  const freeSpace = deps.freeSpace ?? statfsFreeBytes;

  app.post('/api/storage/test', { config: { rateLimit: MAINTENANCE_LIMITS.storageTest } }, async (req) => {
    const body = parseInput(storageBody, req.body ?? {}, 'body');
    // Another device may test the media folder, never a folder of its choosing on the PC.
    if (body.path !== undefined && !ctx.isOwner(req)) throw ownerOnlyError('path', 'Folder');
    const dir = body.path ?? ctx.settings.get().media_root;
    if (!path.isAbsolute(dir)) throw new AppError(400, 'invalid', 'The folder must be a full path, starting at the top of the disk (like /srv/media/tv).', { field: 'path' });
    return testStorage(path.resolve(dir), freeSpace, ctx.appFolders);
  });

  app.post('/api/reset', { config: { rateLimit: MAINTENANCE_LIMITS.reset } }, async (req) => {
    const body = parseInput(resetBody, req.body ?? {}, 'body');
    if (body.confirm !== RESET_CONFIRMATION) throw new AppError(400, 'invalid', `Type ${RESET_CONFIRMATION} to confirm the reset.`, { field: 'confirm' });
    // The owner's folders and host names go back to their defaults only when the owner resets.
    const owner = ctx.isOwner(req);
    const everySettingCleared = Object.fromEntries(Object.keys(settingDefs).map((k) => [k, null]));
    refuseGuestPatch(ctx.settings, everySettingCleared, owner);
    const running = ctx.engine.current();
    if (running) throw new AppError(409, 'sync_running', 'A sync is running: wait for it to finish, then reset.');
    if (ctx.progress.size() > 0) throw new AppError(409, 'busy', 'A recording is being processed (an ad scan or a delete): wait for it to finish, then reset.');
    const counts = ctx.db.transaction(() => ({
      recordings: ctx.db.prepare('DELETE FROM recordings').run().changes,
      shows: ctx.db.prepare('DELETE FROM shows').run().changes,
      sync_runs: ctx.db.prepare(`DELETE FROM sync_runs WHERE status != 'running'`).run().changes,
    }))();
    // Through the settings module, so the schedule and every listener see the defaults at once.
    ctx.settings.patch(everySettingCleared, ctx.clock.now(), { owner });
    ctx.recordings.invalidate();
    ctx.logger.warn(counts, 'state reset by the owner: shows, recordings list, sync history and settings cleared');
    return {
      reset: true,
      cleared: counts,
      message: `Cleared ${counts.shows} followed show${counts.shows === 1 ? '' : 's'}, ${counts.recordings} recording${counts.recordings === 1 ? '' : 's'} from the list and ${counts.sync_runs} sync run${counts.sync_runs === 1 ? '' : 's'}; settings are back to their defaults. Files in the media folder were not touched.`,
    };
  });
}
