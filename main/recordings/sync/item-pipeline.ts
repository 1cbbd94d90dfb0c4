import fs from 'node:fs';
import path from 'node:path';
import { realElapsed, type Clock } from '../../core/clock.js';
import { realPathInside } from '../../core/real-path.js';
import type { Logger } from '../../core/logger.js';
import type { FetchLike } from '../box/description.js';
import { parseEpisodeTitle } from '../box/didl.js';
import { RECORDING_SIZE_MARKER, listingSaysRecording } from '../box/sizes.js';
import { createRateMeter, downloadProgress, type ProgressRegistry } from '../progress.js';
import type { RecordingRow, RecordingsStore } from '../store/recordings-store.js';
import type { WorkItem } from './box-source.js';
import { classifyDownload, type SummaryCounter } from './classify.js';
import { probeContentLength } from './download.js';
import type { Downloader } from './download-thread.js';
import { formatBytes, spaceShortfall, statfsFreeBytes, type FreeSpaceProbe } from './disk-space.js';
import { assertInMediaRoot, prepareFolderInside, refuseSymlinkFile } from './media-root.js';
import { destinationPath, numberedName, withIdSuffix } from './naming.js';

export const CURRENTLY_RECORDING = 'currently recording';

export interface ItemPipelineDeps {
  recordings: RecordingsStore;
  progress: ProgressRegistry;
  fetch: FetchLike;
  /** Runs one download attempt (on the download thread by default). */
  download: Downloader;
  clock: Clock;
  logger: Logger;
  /** Free bytes on a folder's filesystem (statfs by default). */
  freeSpace?: FreeSpaceProbe;
}

export interface ItemContext {
  mediaRoot: string;
  /** The app's own folders (install, data, state file): the media root must keep clear of them. */
  appFolders: readonly string[];
  tolerance: number;
  /** Bytes a download must leave free on the destination's filesystem. */
  marginBytes: number;
  signal: AbortSignal;
}

/** What one item did: the counter to bump, the row written, and why it could not fit (if so). */
export interface ItemResult {
  outcome: ItemOutcome;
  row?: RecordingRow;
  noSpace?: string;
}

/** What happened to one item, for the run's counters (`already_done` and `interrupted` are extra counters). */
export type ItemOutcome = SummaryCounter | 'already_done' | 'interrupted';

/** The path the partial bytes of a download live at until the file is complete. */
export const partialPathOf = (finalPath: string) => `${finalPath}.partial`;

/**
 * The per-item decision of the spec: done → skip; in-progress guard (listing size <= 0, the marker,
 * a listing size changed since the last sync, or a HEAD answering the marker) → `skipped / currently
 * recording`; no room on the disk → `skipped / not enough space …`; else download (resuming; a body
 * longer than listed stops as still recording) and classify. The engine has already matched the row
 * to this recording (ids renumbered by the box). Returns the counter to bump and the row written.
 */
export async function processItem(deps: ItemPipelineDeps, ctx: ItemContext, w: WorkItem): Promise<ItemResult> {
  const { item, show, box } = w;
  const existing = deps.recordings.get(item.id);
  if (existing?.status === 'done') return { outcome: 'already_done' };
  // Deleted from the box (a tombstone): never downloaded again, even while the box still lists it.
  if (existing?.purged_at != null) return { outcome: 'already_done' };

  const parsed = parseEpisodeTitle(item.title);
  const base = {
    box_id: item.id,
    show_id: show.id,
    box_udn: box.udn || null,
    show_title: w.folderTitle,
    box_title: item.title,
    season: parsed.season,
    episode: parsed.episode,
    expected_size: item.size,
    recorded_start: item.recordedStart,
  };
  const write = (fields: Partial<Parameters<RecordingsStore['writeOutcome']>[0]> & { status: RecordingRow['status']; error: string | null }) => {
    deps.recordings.writeOutcome({ ...base, ...fields }, deps.clock.now());
    return deps.recordings.get(item.id)!;
  };

  if (listingSaysRecording(item.size)) {
    return { outcome: 'skipped', row: write({ status: 'skipped', error: CURRENTLY_RECORDING }) };
  }
  // Still growing without a marker: its listing size changed since the last sync. Try again next sync.
  const before = existing?.expected_size ?? null;
  if (before !== null && !listingSaysRecording(before) && before !== item.size) {
    deps.logger.info({ box_id: item.id, before, now: item.size }, 'listing size changed since the last sync: still recording');
    return { outcome: 'skipped', row: write({ status: 'skipped', error: CURRENTLY_RECORDING }) };
  }
  const headLength = await probeContentLength(deps.fetch, item.url!, ctx.signal);
  // Stopping the service is not a verdict on the recording: write nothing.
  if (ctx.signal.aborted) return { outcome: 'interrupted' };
  if (headLength === RECORDING_SIZE_MARKER) {
    return { outcome: 'skipped', row: write({ status: 'skipped', error: CURRENTLY_RECORDING }) };
  }

  let finalPath = destinationPath({
    mediaRoot: ctx.mediaRoot,
    destFolder: show.dest_folder,
    seasonTemplate: show.season_template,
    show: w.folderTitle,
    boxTitle: item.title,
    season: parsed.season,
    episode: parsed.episode,
    episodeTitle: parsed.episodeTitle,
  });
  const owner = deps.recordings.pathOwner(finalPath);
  if (owner !== undefined && owner !== item.id) finalPath = withIdSuffix(finalPath, item.id);
  try {
    // Real paths, one folder at a time: a symlink inside the media root never leads a write outside it.
    prepareFolderInside(ctx.mediaRoot, path.dirname(finalPath), ctx.appFolders);
    finalPath = unclaimedName(deps, item.id, finalPath);
    refuseSymlinkFile(finalPath);
    refuseSymlinkFile(partialPathOf(finalPath));
    assertInMediaRoot(ctx.mediaRoot, finalPath);
    assertInMediaRoot(ctx.mediaRoot, partialPathOf(finalPath));
  } catch (err) {
    const error = `cannot create the folder ${path.dirname(finalPath)}: ${(err as Error).message} — check that media_root (${ctx.mediaRoot}) exists and the app may write there`;
    return { outcome: 'failed', row: write({ status: 'failed', error }) };
  }

  const partialPath = partialPathOf(finalPath);
  // The show's folder or naming changed since an earlier attempt: carry its bytes to the new place.
  if (existing?.file_path && existing.file_path !== finalPath) adoptPartial(ctx.mediaRoot, partialPathOf(existing.file_path), partialPath);
  const expected = item.size;
  const have = fileSize(partialPath);

  // Free space: the rest of the item plus the margin must fit, or the item waits (others still sync).
  const noSpace = spaceShortfall(deps.freeSpace ?? statfsFreeBytes, path.dirname(finalPath), Math.max(0, expected - have), ctx.marginBytes);
  if (noSpace) {
    // Its partial bytes would only keep the disk full for the items that do fit: give them back.
    // (It starts over once there is room for all of it.)
    if (have > 0) removeInside(ctx.mediaRoot, partialPath);
    const error = have > 0 ? `${noSpace} (its ${formatBytes(have)} partial download was removed to give the space back)` : noSpace;
    return { outcome: 'skipped', noSpace: error, row: write({ status: 'skipped', error }) };
  }

  // A row exists from now on, so its live progress shows in the list; if the process dies
  // mid-transfer, `partial` is the truth (the next sync resumes). A resumed row drops its old text.
  const inProgress = have > 0 ? `download in progress (resuming at ${formatBytes(have)} of ${formatBytes(expected)})` : 'download in progress';
  write({ status: 'partial', error: inProgress, file_path: finalPath });

  const meter = createRateMeter();
  // The rate in real bytes per second, whatever speed the service's clock runs at.
  const elapsed = realElapsed(deps.clock);
  const result = await (async () => {
    try {
      return await deps.download({
        url: item.url!,
        partialPath,
        mediaRoot: ctx.mediaRoot,
        signal: ctx.signal,
        expectedSize: expected,
        onTick: (bytes) => void deps.progress.set(item.id, downloadProgress(meter, elapsed.now(), bytes, expected)),
      });
    } finally {
      deps.progress.clear(item.id);
    }
  })();

  if (!result.recorded && ctx.signal.aborted) return { outcome: 'interrupted' };
  const c = classifyDownload(result, expected, ctx.tolerance);
  if (result.error && result.recorded) deps.logger.warn({ box_id: item.id, error: result.error }, 'download interrupted');
  if (c.complete) {
    try {
      // Checked again at the moment of the rename: the folders may have changed during the download.
      assertInMediaRoot(ctx.mediaRoot, partialPath);
      assertInMediaRoot(ctx.mediaRoot, finalPath);
      refuseSymlinkFile(finalPath);
      fs.renameSync(partialPath, finalPath);
    } catch (err) {
      if (result.actualSize !== null || fs.existsSync(partialPath)) {
        const error = `downloaded but cannot rename ${path.basename(partialPath)} to ${path.basename(finalPath)}: ${(err as Error).message} — check the folder's permissions; the next sync tries again`;
        return { outcome: 'failed', row: write({ status: 'failed', error, size: undefined }) };
      }
    }
    const row = write({ status: 'done', error: null, size: c.size, file_path: finalPath, downloaded_at: deps.clock.now() });
    return { outcome: c.counter, row };
  }
  const row = write({
    status: c.status,
    error: c.error,
    size: c.size,
    file_path: result.recorded ? finalPath : undefined,
  });
  return { outcome: c.counter, row };
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Removes `file` when it really lies inside the media root (else leaves it alone). */
function removeInside(root: string, file: string): void {
  if (realPathInside(root, file)) fs.rmSync(file, { force: true });
}

/**
 * Moves an earlier attempt's partial file to the new partial path (or drops it when it cannot
 * move). Nothing outside the media root is moved or removed.
 */
function adoptPartial(root: string, from: string, to: string): void {
  if (from === to || !fs.existsSync(from) || !realPathInside(root, from) || !realPathInside(root, to)) return;
  try {
    if (fs.existsSync(to)) fs.rmSync(from, { force: true });
    else fs.renameSync(from, to);
  } catch {
    fs.rmSync(from, { force: true });
  }
}

const takenOnDisk = (file: string) => fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;

/**
 * `file`, or the first numbered name (`Name (2).ts`, `Name (3).ts`, …) that is this recording's own
 * or free: a file the app did not create (no recording row names it) is never replaced or appended to.
 */
function unclaimedName(deps: ItemPipelineDeps, boxId: string, file: string): string {
  for (let n = 1; n <= 999; n++) {
    const candidate = n === 1 ? file : numberedName(file, n);
    const owner = deps.recordings.pathOwner(candidate);
    if (owner === boxId) return candidate;
    if (owner !== undefined || takenOnDisk(candidate) || takenOnDisk(partialPathOf(candidate))) continue;
    if (n > 1) deps.logger.warn({ box_id: boxId, file: candidate, taken: file }, 'a file the app did not create has this recording\'s name: it is left alone and the recording is saved under a numbered name');
    return candidate;
  }
  throw new Error(`${file} and its numbered names up to (999) are all taken by files the app did not create`);
}
