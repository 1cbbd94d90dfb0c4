/** The recording sync API's resources as the pages read them (see docs/recordings-api.md). */

export type RecordingStatus = 'done' | 'partial' | 'skipped' | 'failed' | 'downloading';
export type AdStatus = 'unscanned' | 'scanning' | 'detected' | 'no_breaks' | 'cut' | 'detect_failed' | 'cut_failed';

export interface Progress {
  phase: 'downloading' | 'scanning' | 'cutting' | 'verifying';
  percent: number | null;
  etaSeconds: number | null;
  etaLabel: string | null;
  detail: string | null;
  startedAt: number;
  updatedAt: number;
}

export interface Recording {
  box_id: string;
  show_id: number | null;
  show_title: string | null;
  box_title: string;
  season: number | null;
  episode: number | null;
  status: RecordingStatus;
  error: string | null;
  size: number | null;
  expected_size: number | null;
  downloaded_at: string | null;
  file_path: string | null;
  purged_at: string | null;
  ad_status: AdStatus;
  ad_breaks_json: string | null;
  deleted_from_box_at: string | null;
  updated_at: string;
  progress: Progress | null;
}

export type AdMode = 'off' | 'detect' | 'cut';

export interface Show {
  id: number;
  name: string;
  dest_folder: string;
  season_template: string;
  enabled: boolean;
  ad_mode: AdMode;
  delete_after_download: boolean;
  created_at: string;
  updated_at: string;
}

export interface SyncSummary {
  downloaded: number;
  failed: number;
  skipped: number;
  seen?: number;
  already_done?: number;
  busy?: number;
  interrupted?: number;
  boxes?: number;
  error?: string;
  note?: string;
  media_server_refresh?: 'ok' | 'failed' | 'not_configured';
  media_server_error?: string;
  box_deleted?: number;
  box_delete_failed?: number;
  box_delete_error?: string;
  box_delete_kept?: number;
}

export interface SyncRun {
  id: number;
  trigger: 'cron' | 'manual' | 'show';
  show_id: number | null;
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'ok' | 'partial' | 'error';
  summary: SyncSummary | null;
}

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
  detector_config: { path: string; source: 'user' | 'bundled' };
  capabilities?: Capabilities;
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
