import type { Clock } from '../../core/clock.js';
import { conflict } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { FetchLike } from '../box/description.js';
import type { SsdpTarget } from '../box/ssdp.js';
import type { ProgressRegistry } from '../progress.js';
import type { RecordingSettings } from '../settings.js';
import type { RecordingsStore } from '../store/recordings-store.js';
import type { Show, ShowsStore } from '../store/shows-store.js';
import type { SyncRun, SyncRunsStore, SyncSummary, SyncTrigger } from '../store/sync-runs-store.js';
import { chooseSyncBoxes, collectWork, type WorkItem } from './box-source.js';
import { overallStatus } from './classify.js';
import type { FreeSpaceProbe } from './disk-space.js';
import { removeStalePartials } from './housekeeping.js';
import { reconcileIds } from './identity.js';
import { processItem } from './item-pipeline.js';
import { mediaRootProblem } from './media-root.js';
import type { Downloader } from './download-thread.js';
import type { FlightGuard } from './single-flight.js';
import type { SyncHooks } from './hooks.js';

export type { SyncHooks } from './hooks.js';

export interface SyncEngineDeps {
  recordings: RecordingsStore;
  shows: ShowsStore;
  runs: SyncRunsStore;
  settings: RecordingSettings;
  progress: ProgressRegistry;
  guard: FlightGuard;
  fetch: FetchLike;
  download: Downloader;
  clock: Clock;
  logger: Logger;
  ssdp: SsdpTarget;
  hooks?: SyncHooks;
  /** Free bytes on a folder's filesystem (statfs by default). */
  freeSpace?: FreeSpaceProbe;
  /** The app's own folders (install, data, state file): a media root overlapping one is refused. */
  appFolders: readonly string[];
}

export interface RunningSync {
  run: SyncRun;
  done: Promise<SyncRun>;
}

export interface SyncEngine {
  /** Starts a run in the background; throws 409 `sync_running` (with `run_id`) while one runs. */
  start(trigger: SyncTrigger, showId?: number): RunningSync;
  current(): RunningSync | null;
  /** Aborts the running sync (downloads keep their partial files) and waits for it to settle. */
  stop(): Promise<void>;
}

/** Rows deleted from the box (tombstones) are purged this long after `purged_at`. */
export const TOMBSTONE_RETENTION_MS = 30 * 24 * 3600 * 1000;

const emptySummary = (): SyncSummary & { already_done: number; busy: number; interrupted: number } => ({
  downloaded: 0,
  failed: 0,
  skipped: 0,
  seen: 0,
  boxes: 0,
  already_done: 0,
  busy: 0,
  interrupted: 0,
});

export function createSyncEngine(deps: SyncEngineDeps): SyncEngine {
  let running: (RunningSync & { controller: AbortController }) | null = null;
  let stopped = false;

  const execute = async (run: SyncRun, showId: number | undefined, signal: AbortSignal): Promise<SyncRun> => {
    const summary = emptySummary();
    const log = deps.logger.child({ run: run.id });
    const settings = deps.settings.get();
    try {
      const shows = showId !== undefined ? [deps.shows.get(showId)].filter((s): s is Show => !!s) : deps.shows.list().filter((s) => s.enabled);
      if (shows.length === 0) {
        // Nothing to match: do not search the LAN or browse the box for nothing.
        summary.note = 'no followed show is enabled: follow a show to sync it';
        return deps.runs.finish(run.id, 'ok', summary, deps.clock.now());
      }
      const rootProblem = mediaRootProblem(settings.media_root, { appFolders: deps.appFolders });
      if (rootProblem) throw new Error(`the media root ${settings.media_root} ${rootProblem}: set media_root to a folder for recordings`);
      const choice = await chooseSyncBoxes(deps, settings.box_address, signal);
      if (choice.pin) {
        // The one box discovery found is remembered: later runs sync it and nothing else.
        deps.settings.patch({ box_address: choice.pin }, deps.clock.now());
        summary.note = `one recording box found by discovery (${choice.boxes[0]!.friendlyName || 'unnamed'} at ${choice.pin}): saved as box_address; clear it to search again`;
        log.info({ box_address: choice.pin }, 'pinned the recording box found by discovery');
      }
      const boxes = choice.boxes;
      summary.boxes = boxes.length;
      const work: WorkItem[] = [];
      const boxErrors: string[] = [...choice.unreachable];
      const held = new Set<string>();
      for (const box of boxes) {
        try {
          const found = await collectWork(deps, box, shows, signal);
          const ids = reconcileIds(deps, found.map((w) => ({ item: w.item, folderTitle: w.folderTitle, boxUdn: box.udn })), deps.clock.now());
          if (ids.moved || ids.retired) {
            summary.renumbered = (summary.renumbered ?? 0) + ids.moved;
            summary.ids_reused = (summary.ids_reused ?? 0) + ids.retired;
          }
          for (const id of ids.busy) held.add(id);
          work.push(...found);
        } catch (err) {
          boxErrors.push((err as Error).message);
        }
      }
      if (boxErrors.length >= boxes.length + choice.unreachable.length) throw new Error(boxErrors.join('; '));
      if (boxErrors.length) summary.error = boxErrors.join('; ');
      summary.seen = work.length;
      // The counters are saved as they grow: a run killed mid-download keeps what it reached.
      const saveProgress = () => {
        try {
          deps.runs.progress(run.id, summary);
        } catch (err) {
          log.warn({ error: (err as Error).message }, 'sync progress not saved');
        }
      };
      saveProgress();

      const ctx = { mediaRoot: settings.media_root, appFolders: deps.appFolders, tolerance: settings.size_tolerance_bytes, marginBytes: settings.free_space_margin_mb * 1024 * 1024, signal };
      let next = 0;
      const downloaded: Array<{ boxId: string; show: Show }> = [];
      const newFiles: string[] = [];
      const worker = async () => {
        while (next < work.length && !signal.aborted) {
          const w = work[next++]!;
          const release = held.has(w.item.id) ? undefined : deps.guard.tryAcquire(w.item.id, `sync:${run.id}`);
          if (!release) {
            summary.busy++;
            continue;
          }
          try {
            const { outcome, row, noSpace } = await processItem(deps, ctx, w);
            summary[outcome]++;
            if (outcome === 'downloaded' && row) {
              downloaded.push({ boxId: row.box_id, show: w.show });
              if (row.file_path) newFiles.push(row.file_path);
            }
            if (noSpace) {
              summary.no_space = (summary.no_space ?? 0) + 1;
              summary.space_error ??= noSpace;
            }
            if (outcome === 'downloaded' && row && deps.hooks?.afterDone && !signal.aborted) {
              await deps.hooks.afterDone(row, w.show, signal).catch((err: unknown) => log.error({ err, box_id: row.box_id }, 'post-download step failed'));
            }
          } catch (err) {
            summary.failed++;
            log.error({ err, box_id: w.item.id }, 'item failed unexpectedly');
          } finally {
            release();
            saveProgress();
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, settings.download_concurrency) }, worker));

      if (summary.downloaded > 0 && deps.hooks?.mediaServer && !signal.aborted) {
        try {
          summary.media_server_refresh = (await deps.hooks.mediaServer.refreshLibrary(signal, newFiles)) ?? 'ok';
        } catch (err) {
          summary.media_server_refresh = 'failed';
          summary.media_server_error = (err as Error).message;
          log.warn({ error: summary.media_server_error }, 'media server refresh failed');
        }
      }
      if (downloaded.length && deps.hooks?.afterRefresh && !signal.aborted) {
        const counters = await deps.hooks.afterRefresh(downloaded, summary.media_server_refresh ?? null, signal).catch((err: unknown) => {
          log.error({ err }, 'box deletion step failed');
        });
        if (counters) Object.assign(summary, counters);
      }
      if (signal.aborted) throw new Error('interrupted: the service stopped during this run');
      const purged = deps.recordings.purgeTombstones(deps.clock.now() - TOMBSTONE_RETENTION_MS);
      if (purged) log.info({ purged }, 'housekeeping: removed old tombstones');
      // Only a run that saw every followed show on every box may call an unlisted item gone.
      const complete = showId === undefined && boxErrors.length === 0;
      const removed = removeStalePartials(deps, settings.media_root, complete ? new Set(work.map((w) => w.item.id)) : null);
      if (removed) {
        summary.partials_removed = removed;
        log.info({ removed }, 'housekeeping: removed partial files of items that will never resume');
      }
      deps.hooks?.housekeeping?.();
      return deps.runs.finish(run.id, overallStatus(summary), summary, deps.clock.now());
    } catch (err) {
      summary.error = signal.aborted ? 'interrupted: the service stopped during this run' : (err as Error).message;
      log.warn({ error: summary.error }, 'sync run failed');
      return deps.runs.finish(run.id, 'error', summary, deps.clock.now());
    }
  };

  return {
    start(trigger, showId) {
      if (stopped) throw conflict('stopping', 'the service is stopping');
      if (running) throw conflict('sync_running', `sync run ${running.run.id} is already running`, { run_id: running.run.id });
      const run = deps.runs.start(trigger, showId ?? null, deps.clock.now());
      const controller = new AbortController();
      const done = execute(run, showId, controller.signal).finally(() => {
        running = null;
      });
      running = { run, done, controller };
      return { run, done };
    },
    current: () => (running ? { run: running.run, done: running.done } : null),
    async stop() {
      stopped = true;
      const r = running;
      if (!r) return;
      r.controller.abort(new Error('service stopping'));
      await r.done.catch(() => undefined);
    },
  };
}
