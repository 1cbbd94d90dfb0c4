import type { Migration } from '../../core/sqlite.js';

/** Ordered storage migrations of the recording sync state file; applied at every start. */
export const recordingMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'shows, recordings, sync runs, settings',
    up(db) {
      db.exec(`
        CREATE TABLE shows (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          dest_folder TEXT NOT NULL,
          season_template TEXT NOT NULL,
          enabled INTEGER NOT NULL DEFAULT 1,
          ad_mode TEXT NOT NULL DEFAULT 'off' CHECK (ad_mode IN ('off','detect','cut')),
          delete_after_download INTEGER NOT NULL DEFAULT 0,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE recordings (
          box_id TEXT PRIMARY KEY,
          show_id INTEGER REFERENCES shows(id) ON DELETE SET NULL,
          box_udn TEXT,
          show_title TEXT,
          box_title TEXT NOT NULL,
          season INTEGER,
          episode INTEGER,
          status TEXT NOT NULL CHECK (status IN ('done','partial','skipped','failed')),
          error TEXT,
          size INTEGER,
          expected_size INTEGER,
          downloaded_at INTEGER,
          file_path TEXT,
          purged_at INTEGER,
          ad_status TEXT NOT NULL DEFAULT 'unscanned'
            CHECK (ad_status IN ('unscanned','scanning','detected','no_breaks','cut','detect_failed','cut_failed')),
          ad_breaks_json TEXT,
          ad_processed_at INTEGER,
          deleted_from_box_at INTEGER,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX recordings_file_path ON recordings(file_path);
        CREATE TABLE sync_runs (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          trigger TEXT NOT NULL CHECK (trigger IN ('cron','manual','show')),
          show_id INTEGER,
          started_at INTEGER NOT NULL,
          finished_at INTEGER,
          status TEXT NOT NULL CHECK (status IN ('running','ok','partial','error')),
          summary_json TEXT
        );
        CREATE TABLE settings (
          key TEXT PRIMARY KEY,
          value_json TEXT NOT NULL,
          updated_at INTEGER NOT NULL
        );
      `);
    },
  },
  {
    version: 2,
    name: 'recording identity: recorded start time, lookup by title',
    up(db) {
      // A box renumbers its ids on a rescan: a recording is matched by its id together with what the
      // box says about it (show folder, title, recorded start, size). Older rows have no start time
      // (null): they match on the rest until the next sync fills it in.
      db.exec(`
        ALTER TABLE recordings ADD COLUMN recorded_start TEXT;
        CREATE INDEX recordings_box_title ON recordings(box_title);
      `);
    },
  },
  {
    version: 3,
    name: 'why an ad scan failed',
    up(db) {
      // The reason a scan or cut failed, for the page (one short line); null otherwise.
      db.exec('ALTER TABLE recordings ADD COLUMN ad_error TEXT;');
    },
  },
  {
    version: 4,
    name: 'ad mode mark: EDL files and chapters',
    up(db) {
      // SQLite cannot widen a CHECK in place: both tables are rebuilt with every row and id kept.
      // Foreign keys are on and cannot be switched off inside the migration's transaction, so the
      // new recordings table first points at the new shows table and the old tables go in an
      // order that fires no ON DELETE action (dropping `shows` while rows point at it would set
      // their show_id to null); the renames then carry the reference over to the name `shows`.
      const seq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'shows'").get() as { seq: number } | undefined;
      db.exec(`
        CREATE TABLE shows_v4 (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          dest_folder TEXT NOT NULL,
          season_template TEXT NOT NULL,
          enabled INTEGER NOT NULL DEFAULT 1,
          ad_mode TEXT NOT NULL DEFAULT 'off' CHECK (ad_mode IN ('off','detect','mark','cut')),
          delete_after_download INTEGER NOT NULL DEFAULT 0,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          mark_chapters TEXT NOT NULL DEFAULT 'none' CHECK (mark_chapters IN ('none','beside')),
          mark_counts_as_cut INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO shows_v4 (id, name, dest_folder, season_template, enabled, ad_mode, delete_after_download, created_at, updated_at)
          SELECT id, name, dest_folder, season_template, enabled, ad_mode, delete_after_download, created_at, updated_at FROM shows;
        CREATE TABLE recordings_v4 (
          box_id TEXT PRIMARY KEY,
          show_id INTEGER REFERENCES shows_v4(id) ON DELETE SET NULL,
          box_udn TEXT,
          show_title TEXT,
          box_title TEXT NOT NULL,
          season INTEGER,
          episode INTEGER,
          status TEXT NOT NULL CHECK (status IN ('done','partial','skipped','failed')),
          error TEXT,
          size INTEGER,
          expected_size INTEGER,
          downloaded_at INTEGER,
          file_path TEXT,
          purged_at INTEGER,
          ad_status TEXT NOT NULL DEFAULT 'unscanned'
            CHECK (ad_status IN ('unscanned','scanning','detected','no_breaks','marked','cut','detect_failed','mark_failed','cut_failed')),
          ad_breaks_json TEXT,
          ad_processed_at INTEGER,
          deleted_from_box_at INTEGER,
          updated_at INTEGER NOT NULL,
          recorded_start TEXT,
          ad_error TEXT,
          ad_marks_json TEXT
        );
        INSERT INTO recordings_v4 (box_id, show_id, box_udn, show_title, box_title, season, episode, status, error, size, expected_size,
            downloaded_at, file_path, purged_at, ad_status, ad_breaks_json, ad_processed_at, deleted_from_box_at, updated_at, recorded_start, ad_error)
          SELECT box_id, show_id, box_udn, show_title, box_title, season, episode, status, error, size, expected_size,
            downloaded_at, file_path, purged_at, ad_status, ad_breaks_json, ad_processed_at, deleted_from_box_at, updated_at, recorded_start, ad_error FROM recordings;
        DROP TABLE recordings;
        DROP TABLE shows;
        ALTER TABLE shows_v4 RENAME TO shows;
        ALTER TABLE recordings_v4 RENAME TO recordings;
        CREATE INDEX recordings_file_path ON recordings(file_path);
        CREATE INDEX recordings_box_title ON recordings(box_title);
      `);
      // A deleted show's id is never handed out again (AUTOINCREMENT), across the rebuild too.
      if (seq) {
        const bumped = db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'shows'").run(seq.seq);
        if (bumped.changes === 0) db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('shows', ?)").run(seq.seq);
      }
    },
  },
  {
    version: 5,
    name: 'mark: the chaptered copy in place of the recording',
    up(db) {
      // Added columns, no rebuild: `mark_chapters` keeps its CHECK ('none','beside'); a show whose
      // chaptered copy stands in place of the recording stores 'beside' there with
      // `mark_copy_place` 'in_place' (the store shows the pair as one value, 'in_place').
      // `original_path`: where the untouched original is kept while the copy stands in for it
      // (a hidden folder beside the recording), null otherwise.
      db.exec(`
        ALTER TABLE shows ADD COLUMN mark_copy_place TEXT NOT NULL DEFAULT 'beside' CHECK (mark_copy_place IN ('beside','in_place'));
        ALTER TABLE recordings ADD COLUMN original_path TEXT;
      `);
    },
  },
];
