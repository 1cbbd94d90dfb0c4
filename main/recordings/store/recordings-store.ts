import type { Db } from '../../core/sqlite.js';

export type RecordingStatus = 'done' | 'partial' | 'skipped' | 'failed';
export type AdStatus = 'unscanned' | 'scanning' | 'detected' | 'no_breaks' | 'cut' | 'detect_failed' | 'cut_failed';

/** A recording row as stored (timestamps in epoch ms). Box ids stay strings. */
export interface RecordingRow {
  box_id: string;
  show_id: number | null;
  box_udn: string | null;
  show_title: string | null;
  box_title: string;
  season: number | null;
  episode: number | null;
  status: RecordingStatus;
  error: string | null;
  size: number | null;
  expected_size: number | null;
  downloaded_at: number | null;
  file_path: string | null;
  purged_at: number | null;
  ad_status: AdStatus;
  ad_breaks_json: string | null;
  ad_processed_at: number | null;
  deleted_from_box_at: number | null;
  updated_at: number;
}

/** What the sync writes for one item; `size: undefined` leaves the stored size alone. */
export interface OutcomeWrite {
  box_id: string;
  show_id: number | null;
  box_udn: string | null;
  show_title: string | null;
  box_title: string;
  season: number | null;
  episode: number | null;
  status: RecordingStatus;
  error: string | null;
  size?: number | null;
  expected_size: number | null;
  file_path?: string | null;
  downloaded_at?: number | null;
}

export interface RecordingsStore {
  get(boxId: string): RecordingRow | undefined;
  list(): RecordingRow[];
  /** Inserts or updates the sync-owned columns of a row; ad columns are never touched here. */
  writeOutcome(w: OutcomeWrite, now: number): void;
  /** Another row (other box id) already claiming this file path. */
  pathOwner(filePath: string): string | undefined;
  count(): number;
}

export function createRecordingsStore(db: Db): RecordingsStore {
  const getStmt = db.prepare('SELECT * FROM recordings WHERE box_id = ?');
  const listStmt = db.prepare('SELECT * FROM recordings ORDER BY COALESCE(downloaded_at, updated_at) DESC, box_id');
  const countStmt = db.prepare('SELECT COUNT(*) AS n FROM recordings');
  const ownerStmt = db.prepare('SELECT box_id FROM recordings WHERE file_path = ?');
  const upsert = db.prepare(`
    INSERT INTO recordings (box_id, show_id, box_udn, show_title, box_title, season, episode, status, error,
      size, expected_size, downloaded_at, file_path, updated_at)
    VALUES (@box_id, @show_id, @box_udn, @show_title, @box_title, @season, @episode, @status, @error,
      @size, @expected_size, @downloaded_at, @file_path, @now)
    ON CONFLICT(box_id) DO UPDATE SET
      show_id = excluded.show_id, box_udn = excluded.box_udn, show_title = excluded.show_title,
      box_title = excluded.box_title, season = excluded.season, episode = excluded.episode,
      status = excluded.status, error = excluded.error,
      size = CASE WHEN @keep_size THEN recordings.size ELSE excluded.size END,
      expected_size = excluded.expected_size,
      downloaded_at = CASE WHEN @keep_downloaded THEN recordings.downloaded_at ELSE excluded.downloaded_at END,
      file_path = CASE WHEN @keep_path THEN recordings.file_path ELSE excluded.file_path END,
      updated_at = excluded.updated_at
  `);

  return {
    get: (boxId) => getStmt.get(boxId) as RecordingRow | undefined,
    list: () => listStmt.all() as RecordingRow[],
    count: () => (countStmt.get() as { n: number }).n,
    pathOwner(filePath) {
      const rows = ownerStmt.all(filePath) as Array<{ box_id: string }>;
      return rows[0]?.box_id;
    },
    writeOutcome(w, now) {
      upsert.run({
        box_id: w.box_id,
        show_id: w.show_id,
        box_udn: w.box_udn,
        show_title: w.show_title,
        box_title: w.box_title,
        season: w.season,
        episode: w.episode,
        status: w.status,
        error: w.error,
        size: w.size ?? null,
        expected_size: w.expected_size,
        downloaded_at: w.downloaded_at ?? null,
        file_path: w.file_path ?? null,
        now,
        keep_size: w.size === undefined ? 1 : 0,
        keep_downloaded: w.downloaded_at === undefined ? 1 : 0,
        keep_path: w.file_path === undefined ? 1 : 0,
      });
    },
  };
}
