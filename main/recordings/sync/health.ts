import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isStorageFull } from '../../core/errors.js';
import type { RecordingSettings } from '../settings.js';
import type { SyncRunsStore } from '../store/sync-runs-store.js';
import { formatBytes, statfsFreeBytes, type FreeSpaceProbe } from './disk-space.js';

export type SyncHealth = { status: 'ok' } | { status: 'degraded'; reasons: string[] };

/**
 * What `/healthz` says about the sync beyond "the state file answers": `degraded` (with the reasons)
 * when the last sync had to skip recordings for lack of space, or the media root's disk is below
 * the free-space margin now. A missing media root is not a health problem (the first download creates it).
 */
export function syncHealth(deps: { runs: SyncRunsStore; settings: RecordingSettings; freeSpace?: FreeSpaceProbe; dataFolders?: readonly string[] }): SyncHealth {
  const reasons: string[] = [];
  for (const dir of new Set(deps.dataFolders ?? [])) {
    const problem = folderWriteProblem(dir);
    if (problem) reasons.push(problem);
  }
  const last = deps.runs.lastFinished();
  const skipped = last?.summary?.no_space ?? 0;
  if (skipped > 0) {
    reasons.push(`the last sync (run ${last!.id}) could not fit ${skipped} recording${skipped > 1 ? 's' : ''}: ${last!.summary!.space_error ?? 'not enough space'}`);
  }
  const s = deps.settings.get();
  const margin = s.free_space_margin_mb * 1024 * 1024;
  try {
    const free = (deps.freeSpace ?? statfsFreeBytes)(s.media_root);
    if (margin > 0 && free < margin) {
      reasons.push(`only ${formatBytes(free)} free in ${s.media_root}, below the ${formatBytes(margin)} kept free (free_space_margin_mb): downloads wait until space is freed`);
    }
  } catch {
    // no media root yet
  }
  return reasons.length ? { status: 'degraded', reasons } : { status: 'ok' };
}

/**
 * Why the folder holding the state file cannot be written, or null: a small file is written,
 * flushed and removed (a full disk refuses the write). Cheap enough for the 30-second health poll.
 */
export function folderWriteProblem(dir: string): string | null {
  const probe = path.join(dir, `.write-probe-${crypto.randomBytes(4).toString('hex')}`);
  let fd: number | null = null;
  try {
    fd = fs.openSync(probe, 'w');
    fs.writeSync(fd, Buffer.alloc(4096, 0x2e));
    fs.fsyncSync(fd);
    return null;
  } catch (err) {
    if (isStorageFull(err)) return `the disk holding the data folder ${dir} is full: settings, shows and sync results cannot be saved until space is freed`;
    return `the data folder ${dir} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): settings, shows and sync results cannot be saved`;
  } finally {
    if (fd !== null) fs.closeSync(fd);
    fs.rmSync(probe, { force: true });
  }
}
