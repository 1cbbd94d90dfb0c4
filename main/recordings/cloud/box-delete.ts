import type { Clock } from '../../core/clock.js';
import { AppError, conflict } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { FetchLike } from '../box/description.js';
import type { FeatureSettings, SecretKeysOf, ValuesOf } from '../features/setting-def.js';
import type { CoreSettingDefs } from '../features/feature.js';
import type { cloudSettings } from './settings.js';
import type { RecordingRow, RecordingsStore } from '../store/recordings-store.js';
import type { Show } from '../store/shows-store.js';
import type { SyncSummary } from '../store/sync-runs-store.js';
import type { FlightGuard } from '../sync/single-flight.js';
import { cloudDelete, CloudError, type CloudAccount, type CloudDeps, type CloudDeleteResult, type CloudTimings } from './cloud-client.js';

/** Ad outcomes after which a show with ad removal on may lose its box copy (cut verified, or nothing to cut). */
const AD_SAFE = new Set<RecordingRow['ad_status']>(['cut', 'no_breaks']);

/**
 * The two settings of other features the cloud delete reads to decide whether a box copy may go
 * (ad removal on, a media server set), named here rather than imported from their folders.
 */
export interface OtherFeatureReads {
  ad_removal_enabled: boolean;
  media_server_url: string;
}

/** The settings the cloud delete is handed: its own, the core's, and the two reads above. */
export type CloudSettings = FeatureSettings<ValuesOf<typeof cloudSettings & CoreSettingDefs> & OtherFeatureReads, SecretKeysOf<typeof cloudSettings>>;

/**
 * Why the box copy of a downloaded recording stays (null: it may be deleted). The show must ask for
 * it; with ad removal in effect for the show, only a verified cut or no breaks let it go (`cut_failed`,
 * a detect-only `detected`, a failed or missing scan keep it), or a mark when the show counts it as a cut; with a media server configured, only
 * after its library refresh succeeded (without one, the show's setting alone decides).
 */
export function keepReason(row: RecordingRow, show: Show, settings: OtherFeatureReads, refresh: SyncSummary['media_server_refresh'] | null): string | null {
  if (!show.delete_after_download) return 'the show keeps box copies';
  if (row.status !== 'done' || !row.file_path) return 'not downloaded';
  if (row.purged_at !== null) return 'already deleted from the box';
  const markedCounts = row.ad_status === 'marked' && show.mark_counts_as_cut;
  if (settings.ad_removal_enabled && show.ad_mode !== 'off' && !AD_SAFE.has(row.ad_status) && !markedCounts) return `ad removal ended ${row.ad_status}: the box copy is kept`;
  if (settings.media_server_url && refresh !== 'ok') return 'the media server has not refreshed its library: the box copy is kept';
  return null;
}

export interface BoxDeleterDeps {
  settings: CloudSettings;
  recordings: RecordingsStore;
  guard: FlightGuard;
  fetch: FetchLike;
  /** The outbound gate's check of the cloud channel's address. */
  checkChannel?: CloudDeps['checkChannel'];
  clock: Clock;
  logger: Logger;
  timings?: Partial<CloudTimings>;
}

/**
 * The cloud account from the settings. The activation code and PIN are attached only when both the
 * sign-in URL and the channel URL are the ones they were given for (they are cleared otherwise).
 */
export function cloudAccountOf(settings: { get(): ValuesOf<typeof cloudSettings>; secretFor(key: 'cloud_activation_code' | 'cloud_pin', url: string): string }): CloudAccount {
  const s = settings.get();
  const bound = (k: 'cloud_activation_code' | 'cloud_pin') => {
    const v = settings.secretFor(k, s.cloud_api_url);
    return v && settings.secretFor(k, s.cloud_ws_url) === v ? v : '';
  };
  return { apiUrl: s.cloud_api_url, wsUrl: s.cloud_ws_url, activationCode: bound('cloud_activation_code'), pin: bound('cloud_pin') };
}

export interface BoxDeleter {
  /** Deletes one recording from the box (the caller holds its guard); on success the row becomes a tombstone. Throws CloudError. */
  deleteOne(row: RecordingRow, signal?: AbortSignal): Promise<CloudDeleteResult>;
  /** The manual delete: guard, tombstone check, then `deleteOne`; failures as AppError (502 with the stage). */
  deleteManually(row: RecordingRow, signal?: AbortSignal): Promise<CloudDeleteResult & { purged_at: string }>;
  /** The sync's step after the media-server refresh: deletes the box copies the gates let go. */
  afterRefresh(downloaded: ReadonlyArray<{ boxId: string; show: Show }>, refresh: SyncSummary['media_server_refresh'] | null, signal: AbortSignal): Promise<Partial<SyncSummary>>;
}

export function createBoxDeleter(deps: BoxDeleterDeps): BoxDeleter {
  const log = deps.logger.child({ component: 'cloud-delete' });

  /** The box the last delete found its recording on: asked first next time (with two boxes on the account). */
  let lastTerminal: string | null = null;

  const deleteOne = async (row: RecordingRow, signal?: AbortSignal): Promise<CloudDeleteResult> => {
    try {
      const cloudDeps = { fetch: deps.fetch, checkChannel: deps.checkChannel, now: () => deps.clock.now(), timings: deps.timings, preferTerminal: lastTerminal };
      const result = await cloudDelete(cloudDeps, cloudAccountOf(deps.settings), row.box_id, signal);
      lastTerminal = result.terminal_id;
      deps.recordings.markDeletedFromBox(row.box_id, deps.clock.now());
      log.info({ box_id: row.box_id, cloud_id: result.cloud_id, already_pending: result.already_pending }, 'deleted the recording from the box');
      return result;
    } catch (err) {
      const stage = err instanceof CloudError ? err.stage : 'send';
      log.warn({ box_id: row.box_id, stage, error: (err as Error).message }, 'cloud delete failed');
      throw err instanceof CloudError ? err : new CloudError(stage, (err as Error).message);
    }
  };

  return {
    deleteOne,
    async deleteManually(row, signal) {
      if (row.purged_at !== null) throw conflict('already_deleted', `Recording ${row.box_id} is already deleted from the box`);
      const release = deps.guard.tryAcquire(row.box_id, 'box-delete');
      if (!release) throw conflict('busy', `Recording ${row.box_id} is already being processed`, { owner: deps.guard.owner(row.box_id) });
      try {
        const result = await deleteOne(row, signal);
        return { ...result, purged_at: new Date(deps.recordings.get(row.box_id)?.purged_at ?? deps.clock.now()).toISOString() };
      } catch (err) {
        const e = err as CloudError;
        throw new AppError(502, 'cloud_delete_failed', `Deleting from the box failed at stage ${e.stage}: ${e.message}`, { extra: { stage: e.stage } });
      } finally {
        release();
      }
    },
    async afterRefresh(downloaded, refresh, signal) {
      const settings = deps.settings.get();
      const out = { box_deleted: 0, box_delete_failed: 0, box_delete_kept: 0 } as Required<Pick<SyncSummary, 'box_deleted' | 'box_delete_failed' | 'box_delete_kept'>> & Pick<SyncSummary, 'box_delete_error'>;
      /** A failure that is not about one recording (sign-in, channel, a sleeping box) stops the rest of this run's deletes. */
      let accountDown: string | null = null;
      for (const { boxId, show } of downloaded) {
        if (signal.aborted || !show.delete_after_download) continue;
        if (accountDown) {
          out.box_delete_failed++;
          continue;
        }
        const row = deps.recordings.get(boxId);
        if (!row) continue;
        const why = keepReason(row, show, settings, refresh);
        if (why) {
          out.box_delete_kept++;
          log.info({ box_id: boxId, reason: why }, 'box copy kept');
          continue;
        }
        const release = deps.guard.tryAcquire(boxId, 'box-delete');
        if (!release) {
          out.box_delete_kept++;
          continue;
        }
        try {
          await deleteOne(row, signal);
          out.box_deleted++;
        } catch (err) {
          out.box_delete_failed++;
          const stage = (err as CloudError).stage;
          out.box_delete_error ??= `${boxId} at stage ${stage}: ${(err as Error).message}`;
          if (stage === 'auth' || stage === 'ws' || stage === 'handshake') accountDown = stage;
        } finally {
          release();
        }
      }
      return out;
    },
  };
}
