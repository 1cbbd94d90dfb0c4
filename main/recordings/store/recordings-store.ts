import type { Db } from '../../core/sqlite.js';

export type RecordingStatus = 'done' | 'partial' | 'skipped' | 'failed';
export type AdStatus = 'unscanned' | 'scanning' | 'detected' | 'no_breaks' | 'marked' | 'cut' | 'detect_failed' | 'mark_failed' | 'cut_failed';

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
  /** Why the last ad scan, mark or cut failed (detect_failed / mark_failed / cut_failed), else null. */
  ad_error?: string | null;
  /** Mark mode: the files it wrote beside the recording (`MarkedFiles` JSON), so a re-mark knows its own. */
  ad_marks_json?: string | null;
  /** Mark's chaptered copy in place of the recording: where the untouched original is kept (hidden folder), else null. */
  original_path?: string | null;
  deleted_from_box_at: number | null;
  /** The box's `recordedStartDateTime` text (identity with the title, show folder and size). */
  recorded_start: string | null;
  updated_at: number;
}

/** What the sync writes for one item; `size: undefined` leaves the stored size alone. */
export type OutcomeWrite = Pick<
  RecordingRow,
  'box_id' | 'show_id' | 'box_udn' | 'show_title' | 'box_title' | 'season' | 'episode' | 'status' | 'error' | 'expected_size'
> &
  Partial<Pick<RecordingRow, 'size' | 'file_path' | 'downloaded_at' | 'recorded_start'>>;

/** ISO 8601 (UTC, milliseconds) of an epoch-ms column, computed exactly in SQL; NULL stays null. */
const isoSql = (col: string) =>
  `CASE WHEN ${col} IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', ${col} / 1000, 'unixepoch') || printf('.%03dZ', ${col} % 1000) END`;

/**
 * The API view of a row, serialised by SQLite itself (10,000 rows must list in well under 50 ms):
 * every stored column the UI needs, timestamps as ISO strings. `progress` is appended by the route.
 * A row that does not know its box folder's title yet (imported from fetcharr, which never stored
 * it; identity must not guess it) shows its followed show's name.
 */
const ROW_JSON_SQL = `SELECT box_id, COALESCE(downloaded_at, updated_at) AS sort_key, json_object(
    'box_id', box_id, 'show_id', show_id,
    'show_title', COALESCE(show_title, (SELECT name FROM shows WHERE shows.id = recordings.show_id)), 'box_title', box_title,
    'season', season, 'episode', episode, 'status', status, 'error', error,
    'size', size, 'expected_size', expected_size, 'downloaded_at', ${isoSql('downloaded_at')},
    'file_path', file_path, 'original_path', original_path, 'purged_at', ${isoSql('purged_at')}, 'ad_status', ad_status,
    'ad_breaks_json', ad_breaks_json, 'ad_processed_at', ${isoSql('ad_processed_at')}, 'ad_error', ad_error,
    'deleted_from_box_at', ${isoSql('deleted_from_box_at')}, 'recorded_start', recorded_start, 'updated_at', ${isoSql('updated_at')}
  ) AS json FROM recordings`;
const LIST_ORDER = ' ORDER BY sort_key DESC, box_id';

/** A row of the list: its id, its sort key (newest first) and its JSON text. */
export interface ListedRow {
  id: string;
  key: number;
  json: string;
  /** `json` without its closing brace, followed by `,"progress":` (the route appends the value and `}`). */
  withProgress: string;
}

const before = (a: ListedRow, b: ListedRow) => a.key > b.key || (a.key === b.key && a.id < b.id);

export interface RecordingsStore {
  get(boxId: string): RecordingRow | undefined;
  list(): RecordingRow[];
  /**
   * Every row with its JSON text, newest first (see ROW_JSON_SQL). Built once, then kept current by
   * each write through this store (one row re-read and moved); writers that bypass the store call
   * `invalidate`.
   */
  listJson(): readonly ListedRow[];
  /** Changes whenever any row changes (lets the route reuse a serialised list). */
  version(): number;
  invalidate(): void;
  /** Housekeeping: deletes tombstoned rows (`purged_at`) older than `before`. */
  purgeTombstones(before: number): number;
  /** Inserts or updates the sync-owned columns of a row; ad columns are never touched here. */
  writeOutcome(w: OutcomeWrite, now: number): void;
  /** Rows whose box title is exactly this (identity lookups). */
  withTitle(boxTitle: string): RecordingRow[];
  /**
   * Moves rows to new box ids in one transaction (a box renumbered its items); every `to` must be
   * free once the moves are done, else nothing changes and this throws.
   */
  rekey(moves: ReadonlyArray<{ from: string; to: string }>, now: number): void;
  /** Replaces a row's error text only (housekeeping notes). */
  noteError(boxId: string, error: string, now: number): void;
  /** Another row (other box id) already claiming this file path. */
  pathOwner(filePath: string): string | undefined;
  count(): number;
  /** The box deleted this recording (cloud delete acknowledged): the row becomes a tombstone. */
  markDeletedFromBox(boxId: string, now: number): void;
  /**
   * Fills in what a row does not know yet about its recording (imported from fetcharr, or stored
   * before start times were kept) from the box's listing; known values are never changed.
   */
  learnIdentity(boxId: string, seen: { show_title: string; box_udn: string | null; recorded_start: string | null }, now: number): void;
}

export function createRecordingsStore(db: Db): RecordingsStore {
  const getStmt = db.prepare('SELECT * FROM recordings WHERE box_id = ?');
  const listStmt = db.prepare('SELECT * FROM recordings ORDER BY COALESCE(downloaded_at, updated_at) DESC, box_id');
  const listJsonStmt = db.prepare(ROW_JSON_SQL + LIST_ORDER);
  const oneJsonStmt = db.prepare(`${ROW_JSON_SQL} WHERE box_id = ?`);
  const countStmt = db.prepare('SELECT COUNT(*) AS n FROM recordings');
  const ownerStmt = db.prepare('SELECT box_id FROM recordings WHERE file_path = ?');
  const upsert = db.prepare(`
    INSERT INTO recordings (box_id, show_id, box_udn, show_title, box_title, season, episode, status, error,
      size, expected_size, downloaded_at, file_path, recorded_start, updated_at)
    VALUES (@box_id, @show_id, @box_udn, @show_title, @box_title, @season, @episode, @status, @error,
      @size, @expected_size, @downloaded_at, @file_path, @recorded_start, @now)
    ON CONFLICT(box_id) DO UPDATE SET
      show_id = excluded.show_id, box_udn = excluded.box_udn, show_title = excluded.show_title,
      box_title = excluded.box_title, season = excluded.season, episode = excluded.episode,
      status = excluded.status, error = excluded.error,
      size = CASE WHEN @keep_size THEN recordings.size ELSE excluded.size END,
      expected_size = excluded.expected_size,
      downloaded_at = CASE WHEN @keep_downloaded THEN recordings.downloaded_at ELSE excluded.downloaded_at END,
      file_path = CASE WHEN @keep_path THEN recordings.file_path ELSE excluded.file_path END,
      recorded_start = CASE WHEN @keep_start THEN recordings.recorded_start ELSE excluded.recorded_start END,
      updated_at = excluded.updated_at
  `);

  const titleStmt = db.prepare('SELECT * FROM recordings WHERE box_title = ?');
  const moveStmt = db.prepare('UPDATE recordings SET box_id = ?, updated_at = ? WHERE box_id = ?');
  const rekeyAll = db.transaction((moves: ReadonlyArray<{ from: string; to: string }>, now: number) => {
    // Through temporary keys, so ids can swap.
    moves.forEach((m, i) => {
      if (moveStmt.run(`\u0000rekey-${i}`, now, m.from).changes !== 1) throw new Error(`no recording ${m.from} to move`);
    });
    moves.forEach((m, i) => moveStmt.run(m.to, now, `\u0000rekey-${i}`));
  });
  const noteStmt = db.prepare('UPDATE recordings SET error = ?, updated_at = ? WHERE box_id = ?');
  const deletedStmt = db.prepare('UPDATE recordings SET purged_at = @now, deleted_from_box_at = @now, updated_at = @now WHERE box_id = @boxId');
  const purgeStmt = db.prepare('DELETE FROM recordings WHERE purged_at IS NOT NULL AND purged_at < ?');
  const learnStmt = db.prepare(`UPDATE recordings SET show_title = COALESCE(show_title, @show_title), box_udn = COALESCE(box_udn, @box_udn),
    recorded_start = COALESCE(recorded_start, @recorded_start), updated_at = @now
    WHERE box_id = @boxId AND ((show_title IS NULL AND @show_title IS NOT NULL) OR (box_udn IS NULL AND @box_udn IS NOT NULL)
      OR (recorded_start IS NULL AND @recorded_start IS NOT NULL))`);
  let listCache: ListedRow[] | null = null;
  let version = 0;
  const toListed = (r: { box_id: string; sort_key: number; json: string }): ListedRow => ({
    id: r.box_id,
    key: r.sort_key,
    json: r.json,
    withProgress: `${r.json.slice(0, -1)},"progress":`,
  });
  /** Moves one row to its place in the cached list after a write. */
  const refreshCached = (boxId: string) => {
    version++;
    if (!listCache) return;
    const at = listCache.findIndex((r) => r.id === boxId);
    if (at >= 0) listCache.splice(at, 1);
    const raw = oneJsonStmt.get(boxId) as { box_id: string; sort_key: number; json: string } | undefined;
    if (!raw) return;
    const row = toListed(raw);
    let lo = 0;
    let hi = listCache.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(listCache[mid]!, row)) lo = mid + 1;
      else hi = mid;
    }
    listCache.splice(lo, 0, row);
  };

  return {
    invalidate: () => {
      version++;
      listCache = null;
    },
    version: () => version,
    purgeTombstones(before) {
      const n = purgeStmt.run(before).changes;
      if (n) {
        version++;
        listCache = null;
      }
      return n;
    },
    get: (boxId) => getStmt.get(boxId) as RecordingRow | undefined,
    list: () => listStmt.all() as RecordingRow[],
    listJson: () => (listCache ??= (listJsonStmt.all() as Array<{ box_id: string; sort_key: number; json: string }>).map(toListed)),
    count: () => (countStmt.get() as { n: number }).n,
    pathOwner(filePath) {
      const rows = ownerStmt.all(filePath) as Array<{ box_id: string }>;
      return rows[0]?.box_id;
    },
    withTitle: (boxTitle) => titleStmt.all(boxTitle) as RecordingRow[],
    rekey(moves, now) {
      if (!moves.length) return;
      rekeyAll(moves, now);
      version++;
      listCache = null;
    },
    learnIdentity(boxId, seen, now) {
      if (learnStmt.run({ boxId, ...seen, now }).changes) refreshCached(boxId);
    },
    markDeletedFromBox(boxId, now) {
      if (deletedStmt.run({ boxId, now }).changes) refreshCached(boxId);
    },
    noteError(boxId, error, now) {
      if (noteStmt.run(error, now, boxId).changes) refreshCached(boxId);
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
        recorded_start: w.recorded_start ?? null,
        now,
        keep_size: w.size === undefined ? 1 : 0,
        keep_downloaded: w.downloaded_at === undefined ? 1 : 0,
        keep_path: w.file_path === undefined ? 1 : 0,
        keep_start: w.recorded_start === undefined ? 1 : 0,
      });
      refreshCached(w.box_id);
    },
  };
}
