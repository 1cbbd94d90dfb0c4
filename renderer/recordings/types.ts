/** The recording sync API's resources as the pages read them (see docs/recordings-api.md). */

import type { ProgressEntry } from '../../main/recordings/progress.js';
import type { AdStatus, RecordingRow } from '../../main/recordings/store/recordings-store.js';
import type { AdMode, ShowInput, Show as StoredShow } from '../../main/recordings/store/shows-store.js';
import type { SyncRun as StoredRun, SyncSummary as StoredSummary } from '../../main/recordings/store/sync-runs-store.js';

export type { AdMode, AdStatus, ShowInput };

/** A stored shape as the API sends it: its epoch-ms columns `K` as ISO 8601 text. */
type WithIsoTimes<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? string | null : string };

/** As stored, or `downloading` while the row's download is live. */
export type RecordingStatus = RecordingRow['status'] | 'downloading';

export type Progress = ProgressEntry;

/** A row of `GET /api/recordings`. */
export type Recording = Omit<WithIsoTimes<RecordingRow, 'downloaded_at' | 'purged_at' | 'ad_processed_at' | 'deleted_from_box_at' | 'updated_at'>, 'box_udn' | 'status'> & {
  status: RecordingStatus;
  progress: Progress | null;
};

export type Show = WithIsoTimes<StoredShow, 'created_at' | 'updated_at'>;

/** A run's counters: runs stored by older versions may lack the newer ones; the engine adds a few of its own. */
export type SyncSummary = Partial<StoredSummary> &
  Pick<StoredSummary, 'downloaded' | 'failed' | 'skipped'> & { already_done?: number; busy?: number; interrupted?: number; imported_from?: string };

export type SyncRun = Omit<WithIsoTimes<StoredRun, 'started_at' | 'finished_at'>, 'summary'> & { summary: SyncSummary | null };

export interface SyncState {
  running: SyncRun | null;
  schedule: { cron: string; next_run: string | null; timezone: string } | null;
}

export type SettingSource = 'stored' | 'env' | 'default';

export interface Capabilities {
  ad_scan: boolean;
  discover_media_server: boolean;
  cloud_test: boolean;
  detect_media_server_token?: boolean;
  delete_from_box?: boolean;
}

export interface SettingsView {
  settings: Record<string, string | number | boolean>;
  sources: Record<string, SettingSource>;
  tz: string;
  /** `path` only for the owner (another device is not shown the PC's folders). */
  detector_config: { path?: string; source: 'user' | 'bundled' };
  capabilities?: Capabilities;
  /** Whether this browser may change `owner_only` (from the PC itself, or with a passcode session). */
  owner?: boolean;
  owner_only?: string[];
}

export interface BoxView {
  udn: string;
  friendly_name: string;
  model_name?: string;
  address: string;
  location: string;
}

export interface BoxShows {
  boxes: Array<{ box: BoxView; shows: Array<{ id: string; title: string; item_count: number; followed_show_id: number | null }>; error?: string }>;
}
