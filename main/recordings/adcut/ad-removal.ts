import fs from 'node:fs';
import path from 'node:path';
import { realElapsed, type Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Db } from '../../core/sqlite.js';
import { startScanTicker, type ProgressRegistry } from '../progress.js';
import type { FeatureSettingsOf } from '../features/feature.js';
import type { adRemovalSettings } from './settings.js';
import type { AdStatus, RecordingRow, RecordingsStore } from '../store/recordings-store.js';
import type { Show, ShowsStore } from '../store/shows-store.js';
import type { Span } from './breaks.js';
import { CutFailed, cutRecording } from './cut.js';
import { MarkFailed, markRecording, removeOurFiles, type MarkedFiles } from './mark.js';
import { detectBreaks, scanTimeoutMs } from './detect.js';
import { resolveDetectorConfig } from './detector-config.js';
import { origPathOf, pruneOriginals, recoverOriginals } from './swap.js';
import { bringOriginalBack, finishInterruptedMoves, keepOriginalAside, keptPathOf, ORIGINALS_DIR_NAME } from './in-place.js';
import { probeTimeline, type AdTools } from './tools.js';
import { removeStaleWorkDirs, withWorkDir, workRootOf } from './work-dir.js';
import { assertInMediaRoot } from '../sync/media-root.js';

const DAY_MS = 24 * 3600 * 1000;

export interface AdRemovalDeps {
  db: Db;
  recordings: RecordingsStore;
  shows: ShowsStore;
  settings: FeatureSettingsOf<typeof adRemovalSettings>;
  progress: ProgressRegistry;
  clock: Clock;
  logger: Logger;
  tools: AdTools;
  /** Where a user's `detector.ini` lives; `bundledDetectorIni` is used without one. */
  configDir: string;
  bundledDetectorIni: string;
  /** The scan timeout rule (spec: 1.5 x duration, 60 min floor, 6 h cap); tests pass a short one. */
  scanTimeout?: (durationSeconds: number | null) => number;
  /** Test seam: runs between the two renames of a swap. */
  betweenRenames?(): void;
}

export type AdMode = 'detect' | 'mark' | 'cut';

export interface AdRemoval {
  /**
   * Start-up: originals of interrupted swaps back in place, moves into the originals folder
   * completed, stale work folders removed. A kept original (Mark in place) is never removed.
   */
  recoverAtStart(): void;
  /** The sync's post-download step: double gate (setting and show mode), never throws. */
  afterDone(row: RecordingRow, show: Show, signal: AbortSignal): Promise<void>;
  /** Manual scan (the route holds the single-flight guard): the show's mode, detect-only when it is `off`. */
  scan(row: RecordingRow, signal: AbortSignal): Promise<void>;
  /** Sync housekeeping: `.orig` files older than `ad_original_retention_days` are deleted. */
  housekeeping(): void;
  /** Aborts running scans and cuts and waits for them to settle (their rows get back their earlier state). */
  stop(): Promise<void>;
}

export function createAdRemoval(deps: AdRemovalDeps): AdRemoval {
  const log = deps.logger.child({ feature: 'adcut' });
  const setAd = deps.db.prepare(
    'UPDATE recordings SET ad_status = @status, ad_breaks_json = @breaks, ad_processed_at = @at, ad_error = @error, updated_at = @now WHERE box_id = @box_id',
  );
  const setScanning = deps.db.prepare("UPDATE recordings SET ad_status = 'scanning', updated_at = @now WHERE box_id = @box_id");
  const restore = deps.db.prepare(
    'UPDATE recordings SET ad_status = @ad_status, ad_breaks_json = @ad_breaks_json, ad_processed_at = @ad_processed_at, updated_at = @now WHERE box_id = @box_id',
  );
  const setMarks = deps.db.prepare('UPDATE recordings SET ad_marks_json = @marks WHERE box_id = @box_id');
  const setOriginal = deps.db.prepare('UPDATE recordings SET original_path = @original WHERE box_id = @box_id');
  const keepOriginal = (boxId: string, original: string | null) => {
    setOriginal.run({ box_id: boxId, original });
    deps.recordings.invalidate();
  };
  const running = new Set<Promise<void>>();
  const stopController = new AbortController();

  const write = (boxId: string, status: AdStatus, breaks: Span[] | null, error: string | null = null) => {
    const now = deps.clock.now();
    setAd.run({ box_id: boxId, status, breaks: breaks === null ? null : JSON.stringify(breaks), at: status === 'unscanned' ? null : now, error, now });
    deps.recordings.invalidate();
  };

  const runPipeline = async (row: RecordingRow, mode: AdMode, outer: AbortSignal): Promise<void> => {
    const boxId = row.box_id;
    const signal = AbortSignal.any([outer, stopController.signal]);
    const file = row.file_path;
    const failStatus: AdStatus = mode === 'cut' ? 'cut_failed' : mode === 'mark' ? 'mark_failed' : 'detect_failed';
    const show = row.show_id === null ? undefined : deps.shows.get(row.show_id);
    const previousMarks = marksOf(row);
    if (!file) return;
    // Mark with the chaptered copy in place of the recording: the original is kept aside.
    const inPlace = mode === 'mark' && show?.mark_chapters === 'in_place';
    const kept = row.original_path ?? keptPathOf(file);
    setScanning.run({ box_id: boxId, now: deps.clock.now() });
    deps.recordings.invalidate();
    const mediaRoot = deps.settings.get().media_root;
    try {
      // The recording, its kept original and the work folder must really lie inside the media root.
      for (const p of [file, origPathOf(file), workRootOf(file), kept]) assertInMediaRoot(mediaRoot, p);
      // A re-scan of a cut recording reads the kept original, so breaks and cuts refer to it.
      let source = fs.existsSync(origPathOf(file)) ? origPathOf(file) : file;
      if (!fs.existsSync(file) && fs.existsSync(kept)) {
        // A chaptered copy stands in place of the recording: a re-mark reads the untouched original;
        // any other mode (or a copy beside it now) gets the original back at its path first.
        if (inPlace) source = kept;
        else {
          bringOriginalBack(file, kept, mediaRoot);
          keepOriginal(boxId, null);
          source = file;
        }
      }
      if (mode === 'mark' && source !== file && source !== kept) {
        // Mark leaves the whole recording: a show switched from cut to mark gets its original back.
        fs.renameSync(source, file);
        source = file;
      }
      if (!fs.existsSync(source)) throw new Error(`the recording file is missing: ${file}`);
      await withWorkDir(file, async (workDir) => {
        // One probe for the scan's progress and the cut (which needs where the timeline starts too).
        const timeline = await probeTimeline(deps.tools, source, signal);
        const duration = timeline?.duration ?? null;
        const stopTicker = startScanTicker(deps.progress, realElapsed(deps.clock), boxId, duration);
        let breaks: Span[];
        try {
          breaks = await detectBreaks({
            tools: deps.tools,
            iniSource: resolveDetectorConfig(deps.configDir, deps.bundledDetectorIni).path,
            file: source,
            workDir,
            timeoutMs: (deps.scanTimeout ?? scanTimeoutMs)(duration),
            signal,
          });
        } finally {
          stopTicker();
        }
        if (breaks.length === 0) {
          // A re-cut that finds nothing to cut (say, a changed detector.ini) puts the original back.
          if (mode === 'cut' && source !== file) {
            assertInMediaRoot(mediaRoot, source);
            assertInMediaRoot(mediaRoot, file);
            fs.renameSync(source, file);
          }
          if (mode === 'mark' && source === kept) {
            // The copy standing in for it is about to go: the original comes back first.
            bringOriginalBack(file, kept, mediaRoot);
            keepOriginal(boxId, null);
          }
          if (mode === 'mark' && previousMarks) {
            // Nothing to mark: the marks an earlier scan wrote would skip programme now.
            removeOurFiles(previousMarks, mediaRoot);
            setMarks.run({ box_id: boxId, marks: null });
          }
          write(boxId, 'no_breaks', []);
          return;
        }
        if (mode === 'detect') {
          write(boxId, 'detected', breaks);
          return;
        }
        if (mode === 'mark') {
          deps.progress.set(boxId, { phase: 'marking', percent: null });
          const marks = await markRecording({
            tools: deps.tools,
            file,
            source,
            mediaRoot,
            breaks,
            duration,
            chapters: show?.mark_chapters === 'beside' || inPlace,
            previous: previousMarks,
            workDir,
            signal,
            onVerify: () => deps.progress.set(boxId, { phase: 'verifying', percent: null }),
          });
          setMarks.run({ box_id: boxId, marks: JSON.stringify(marks) });
          if (inPlace && source !== kept) {
            // The row names the kept original before it moves: killed at any point, the recording is
            // at its path, or under both names (completed at the next start), never lost.
            keepOriginal(boxId, kept);
            try {
              keepOriginalAside(file, mediaRoot);
            } catch (err) {
              keepOriginal(boxId, null);
              throw new MarkFailed(`the chaptered copy is beside the recording, but moving the recording into ${ORIGINALS_DIR_NAME} failed: ${(err as Error).message}`);
            }
          }
          write(boxId, 'marked', breaks);
          log.info({ box_id: boxId, breaks: breaks.length, files: marks.files.length }, 'commercials marked');
          return;
        }
        const result = await cutRecording({
          tools: deps.tools,
          file,
          mediaRoot,
          source,
          breaks,
          workDir,
          signal,
          timeline: timeline ?? undefined,
          onSegment: (i, n) => deps.progress.set(boxId, { phase: 'cutting', percent: null, detail: `segment ${i}/${n}` }),
          onVerify: () => deps.progress.set(boxId, { phase: 'verifying', percent: null }),
          betweenRenames: deps.betweenRenames,
        });
        write(boxId, 'cut', breaks);
        log.info({ box_id: boxId, kept_seconds: Math.round(result.outputSeconds), segments: result.keep.length }, 'commercials cut');
      });
    } catch (err) {
      if (signal.aborted) {
        // Stopping the service is not a verdict on the recording: it gets back the state it had.
        restore.run({ box_id: boxId, ad_status: row.ad_status, ad_breaks_json: row.ad_breaks_json, ad_processed_at: row.ad_processed_at, now: deps.clock.now() });
        deps.recordings.invalidate();
        return;
      }
      log.warn({ box_id: boxId, mode, error: (err as Error).message, cut: err instanceof CutFailed, mark: err instanceof MarkFailed }, 'ad removal failed');
      write(boxId, failStatus, null, failureReason(err));
    } finally {
      deps.progress.clear(boxId);
    }
  };

  const track = (p: Promise<void>) => {
    running.add(p);
    return p.finally(() => running.delete(p));
  };

  const modeOf = (row: RecordingRow): AdMode => {
    const show = row.show_id === null ? undefined : deps.shows.get(row.show_id);
    return show?.ad_mode === 'cut' || show?.ad_mode === 'mark' ? show.ad_mode : 'detect';
  };

  return {
    recoverAtStart() {
      // Never stops the service from starting: what cannot be repaired is logged.
      try {
        const files = deps.recordings
          .list()
          .map((r) => r.file_path)
          .filter((p): p is string => !!p);
        const mediaRoot = deps.settings.get().media_root;
        const restored = recoverOriginals(files, mediaRoot, (file, err) => log.error({ file, err }, 'cannot restore the original of an interrupted cut'));
        if (restored.length) log.warn({ restored }, 'restored originals of interrupted cuts');
        const rows = deps.recordings.list();
        const moved = finishInterruptedMoves(rows, mediaRoot, (file, err) => log.error({ file, err }, 'cannot complete an interrupted move into the originals folder'));
        if (moved.length) log.warn({ moved }, 'completed moves of originals into the originals folder');
        // Killed before the move started: the recording is still at its path, the row names it again.
        for (const r of rows) if (r.file_path && r.original_path && !fs.existsSync(r.original_path) && fs.existsSync(r.file_path)) keepOriginal(r.box_id, null);
        const stale = removeStaleWorkDirs(files.map((f) => path.dirname(f)), mediaRoot);
        if (stale) log.info({ folders: stale }, 'removed work folders left by an earlier process');
      } catch (err) {
        log.error({ err }, 'start-up recovery of ad removal failed');
      }
    },
    async afterDone(row, show, signal) {
      try {
        if (row.status !== 'done' || !deps.settings.get().ad_removal_enabled || show.ad_mode === 'off') return;
        await track(runPipeline(row, show.ad_mode, signal));
      } catch (err) {
        log.error({ err, box_id: row.box_id }, 'ad removal step failed');
      }
    },
    scan(row, signal) {
      return track(runPipeline(row, modeOf(row), signal));
    },
    housekeeping() {
      try {
        const days = deps.settings.get().ad_original_retention_days;
        const removed = pruneOriginals(
          deps.recordings.list().filter((r) => r.ad_status !== 'scanning'),
          deps.clock.now() - days * DAY_MS,
          deps.settings.get().media_root,
        );
        if (removed.length) log.info({ removed: removed.length }, 'housekeeping: removed kept originals past retention');
      } catch (err) {
        log.warn({ err }, 'housekeeping of kept originals failed');
      }
    },
    async stop() {
      stopController.abort();
      await Promise.allSettled([...running]);
    },
  };
}

/** What an earlier mark wrote (`ad_marks_json`), null when nothing or unreadable. */
function marksOf(row: RecordingRow): MarkedFiles | null {
  if (!row.ad_marks_json) return null;
  try {
    const parsed = JSON.parse(row.ad_marks_json) as MarkedFiles;
    return Array.isArray(parsed?.files) ? parsed : null;
  } catch {
    return null;
  }
}

/** Why a scan or cut failed, in one line the page can show (the full detail stays in the log). */
function failureReason(err: unknown): string {
  const text = String((err as Error)?.message ?? err).replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text || 'unknown error';
}
