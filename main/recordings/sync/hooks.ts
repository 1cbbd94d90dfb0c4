import type { RecordingRow } from '../store/recordings-store.js';
import type { Show } from '../store/shows-store.js';
import type { SyncSummary } from '../store/sync-runs-store.js';

/** Later issues plug in here; every hook is optional and its failures never stop a sync. */
export interface SyncHooks {
  /** Runs inline after a download is classified `done`, under the item's single-flight guard (ad removal, box delete). */
  afterDone?(row: RecordingRow, show: Show, signal: AbortSignal): Promise<void>;
  /**
   * After a run that downloaded something: refresh the media server's library (`not_configured` when
   * none is set); `files` are the run's downloaded files (a server may look at only their folders).
   */
  mediaServer?: { refreshLibrary(signal?: AbortSignal, files?: readonly string[]): Promise<'ok' | 'not_configured' | void> };
  /**
   * After the refresh step, with this run's downloads and the refresh outcome (null: no refresh ran):
   * box deletion of what may go. Returns counters for the summary.
   */
  afterRefresh?(downloaded: ReadonlyArray<{ boxId: string; show: Show }>, refresh: SyncSummary['media_server_refresh'] | null, signal: AbortSignal): Promise<Partial<SyncSummary> | void>;
  /** Sync housekeeping (ad removal: `.orig` files past their retention). */
  housekeeping?(): void;
}
