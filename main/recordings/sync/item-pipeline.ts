import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { FetchLike } from '../box/description.js';
import { parseEpisodeTitle } from '../box/didl.js';
import { RECORDING_SIZE_MARKER, listingSaysRecording } from '../box/sizes.js';
import { formatEta, formatRate, type ProgressRegistry } from '../progress.js';
import type { RecordingRow, RecordingsStore } from '../store/recordings-store.js';
import type { WorkItem } from './box-source.js';
import { classifyDownload, type SummaryCounter } from './classify.js';
import { downloadToPartial, probeContentLength } from './download.js';
import type { MediaGet } from './media-get.js';
import { prepareFolderInside, refuseSymlinkFile } from './media-root.js';
import { destinationPath, withIdSuffix } from './naming.js';

export const CURRENTLY_RECORDING = 'currently recording';

export interface ItemPipelineDeps {
  recordings: RecordingsStore;
  progress: ProgressRegistry;
  fetch: FetchLike;
  /** Streams media bodies from the box. */
  mediaGet: MediaGet;
  clock: Clock;
  logger: Logger;
}

export interface ItemContext {
  mediaRoot: string;
  tolerance: number;
  signal: AbortSignal;
}

/** What happened to one item, for the run's counters (`already_done` and `interrupted` are extra counters). */
export type ItemOutcome = SummaryCounter | 'already_done' | 'interrupted';

/** The path the partial bytes of a download live at until the file is complete. */
export const partialPathOf = (finalPath: string) => `${finalPath}.partial`;

/**
 * The per-item decision of the spec: done → skip; in-progress guard (listing size <= 0, the marker,
 * or a HEAD answering the marker) → `skipped / currently recording`; else download (resuming) and
 * classify. Returns the counter to bump and the row written.
 */
export async function processItem(deps: ItemPipelineDeps, ctx: ItemContext, w: WorkItem): Promise<{ outcome: ItemOutcome; row?: RecordingRow }> {
  const { item, show, box } = w;
  const existing = deps.recordings.get(item.id);
  if (existing?.status === 'done') return { outcome: 'already_done' };

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
  };
  const write = (fields: Partial<Parameters<RecordingsStore['writeOutcome']>[0]> & { status: RecordingRow['status']; error: string | null }) => {
    deps.recordings.writeOutcome({ ...base, ...fields }, deps.clock.now());
    return deps.recordings.get(item.id)!;
  };

  if (listingSaysRecording(item.size)) {
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
    prepareFolderInside(ctx.mediaRoot, path.dirname(finalPath));
    refuseSymlinkFile(finalPath);
    refuseSymlinkFile(partialPathOf(finalPath));
  } catch (err) {
    const error = `cannot prepare ${path.dirname(finalPath)}: ${(err as Error).message}`;
    return { outcome: 'failed', row: write({ status: 'failed', error }) };
  }

  // First sight of this recording: a row exists from now on, so its live progress shows in the list;
  // if the process dies mid-transfer, `partial` is the truth (the next sync resumes).
  if (!existing) write({ status: 'partial', error: 'download in progress', file_path: finalPath });

  const partialPath = partialPathOf(finalPath);
  const expected = item.size;
  let startedAt = deps.clock.now();
  let startBytes = -1;
  const result = await (async () => {
    try {
      return await downloadToPartial({
        url: item.url!,
        partialPath,
        get: deps.mediaGet,
        clock: deps.clock,
        signal: ctx.signal,
        // The listing's size plus a margin (a box's length can be a few dozen bytes off).
        maxBytes: expected + Math.max(ctx.tolerance, 16 * 1024 * 1024),
        onTick: (bytes) => {
          const now = deps.clock.now();
          if (startBytes < 0) {
            startBytes = bytes;
            startedAt = now;
          }
          const elapsed = (now - startedAt) / 1000;
          const rate = elapsed > 0 ? (bytes - startBytes) / elapsed : 0;
          const eta = rate > 0 ? Math.max(0, expected - bytes) / rate : null;
          deps.progress.set(item.id, {
            phase: 'downloading',
            percent: (bytes / expected) * 100,
            detail: rate > 0 ? formatRate(rate) : null,
            etaSeconds: eta === null ? null : Math.round(eta),
            etaLabel: eta === null ? null : formatEta(eta),
          });
        },
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
      fs.renameSync(partialPath, finalPath);
    } catch (err) {
      if (result.actualSize !== null || fs.existsSync(partialPath)) {
        const error = `downloaded but cannot move into place: ${(err as Error).message}`;
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
