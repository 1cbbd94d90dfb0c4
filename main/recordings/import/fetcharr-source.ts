import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../../core/errors.js';
import { IMPORT_CAPS, ImportFileRefused, copyImportFile, importFileOk, importFileProblem } from '../../core/import-file.js';

/**
 * Reading a fetcharr config folder (furey/fetcharr 1.x, knex migrations 0001–0003) exactly as it is
 * on disk: `state.db` opened read-only (never created, never written, no journal replayed into it),
 * each table read on its own so a damaged part costs only itself. Rows come back as fetcharr wrote
 * them (text timestamps, 0/1 booleans); mapping onto our store is the plan's job.
 */

export interface FetcharrShowRow {
  id: number;
  fetch_show_pattern: string;
  dest_folder: string;
  season_template: string | null;
  enabled: unknown;
  delete_after_download: unknown;
  created_at: unknown;
  /** Added by migration 0003; absent in an older folder. */
  ad_removal?: string | null;
}

export interface FetcharrRecordingRow {
  fetch_id: string;
  show_id: number | null;
  fetch_title: string;
  season: number | null;
  episode: number | null;
  file_path: string | null;
  size: number | null;
  status: string;
  error: string | null;
  downloaded_at: unknown;
  deleted_from_fetch_at: unknown;
  purged_at?: unknown;
  ad_status?: string | null;
  ad_breaks_json?: string | null;
  ad_processed_at?: unknown;
}

export interface FetcharrSyncRow {
  id: number;
  started_at: unknown;
  finished_at: unknown;
  status: string;
  summary_json: string | null;
}

export interface FetcharrSource {
  /** The folder holding `state.db` (the one given, or its `config/`). */
  configDir: string;
  dbPath: string;
  /** Names in `knex_migrations` (empty when that table is missing or unreadable). */
  migrations: string[];
  settings: Map<string, string | null>;
  shows: FetcharrShowRow[];
  recordings: FetcharrRecordingRow[];
  syncs: FetcharrSyncRow[];
  /** A user's comskip override next to the state file (`comskip.ini`), when there is one. */
  comskipIni: string | null;
  /** What could not be read, in plain words (a damaged file imports the rest). */
  problems: string[];
}

/** The refusal of a folder that is not a fetcharr config folder: 400 naming the folder field. */
export function notFetcharr(message: string, field = 'dir'): AppError {
  return new AppError(400, 'not_fetcharr_folder', message, { field });
}

/** `DIR/state.db`, or `DIR/config/state.db` (the folder above fetcharr's config mount). */
export function findStateDb(dir: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw notFetcharr(`${dir} does not exist`);
  }
  if (!stat.isDirectory()) throw notFetcharr(`${dir} is not a folder: give the folder that holds fetcharr's state.db`);
  for (const candidate of [path.join(dir, 'state.db'), path.join(dir, 'config', 'state.db')]) {
    if (!fs.lstatSync(candidate, { throwIfNoEntry: false })) continue;
    // Only a regular file inside the folder given, within the cap: never a device, FIFO or a link out.
    const problem = importFileProblem(candidate, { inside: dir, maxBytes: IMPORT_CAPS.database });
    if (problem) throw notFetcharr(`${path.relative(dir, candidate)} in ${dir} ${problem}`);
    return candidate;
  }
  throw notFetcharr(`${dir} is not a fetcharr config folder: it has no state.db (nor config/state.db)`);
}

const REQUIRED = {
  shows: ['id', 'fetch_show_pattern', 'dest_folder'],
  recordings: ['fetch_id', 'fetch_title', 'status'],
} as const;

/** The most rows read from one table: fetcharr keeps a few thousand; a crafted file cannot make it hold millions. */
export const FETCHARR_ROW_BUDGET = 200_000;

/**
 * Reads every row of a table one at a time, at most `FETCHARR_ROW_BUDGET`: rows before a damaged
 * page are kept, the failure (or the budget) is reported.
 */
function readTable<T>(db: Database.Database, table: string, problems: string[], order: string): T[] {
  const rows: T[] = [];
  try {
    for (const row of db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).iterate()) {
      if (rows.length >= FETCHARR_ROW_BUDGET) {
        problems.push(`${table}: only the first ${FETCHARR_ROW_BUDGET} rows were read (the most an import reads)`);
        break;
      }
      rows.push(row as T);
    }
  } catch (err) {
    problems.push(`${table}: ${rows.length ? `only the first ${rows.length} rows could be read` : 'could not be read'} (${(err as Error).message})`);
  }
  return rows;
}

/**
 * Opens and reads a fetcharr config folder. Throws 400 `not_fetcharr_folder` when the folder has no
 * state.db, or its state.db is not SQLite or not fetcharr's; a readable but damaged file returns
 * what it could read with `problems` naming the rest.
 */
export function readFetcharrFolder(dir: string): FetcharrSource {
  const dbPath = findStateDb(path.resolve(dir));
  // A state.db left in WAL mode with its -wal file (copied while fetcharr ran): SQLite would add a
  // -shm file next to it even read-only, so both are read from a private copy instead.
  let scratch: string | null = null;
  let openPath = dbPath;
  if (fs.lstatSync(`${dbPath}-wal`, { throwIfNoEntry: false })) {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fetcharr-read-'));
    openPath = path.join(scratch, 'state.db');
    const rules = { inside: path.dirname(dbPath), maxBytes: IMPORT_CAPS.database };
    try {
      copyImportFile(dbPath, openPath, rules, 'state.db');
      copyImportFile(`${dbPath}-wal`, `${openPath}-wal`, rules, 'state.db-wal');
    } catch (err) {
      fs.rmSync(scratch, { recursive: true, force: true });
      throw err instanceof ImportFileRefused ? notFetcharr(err.message) : err;
    }
  }
  let db: Database.Database;
  try {
    db = new Database(openPath, { readonly: true, fileMustExist: true });
  } catch (err) {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    throw notFetcharr(`${dbPath} cannot be opened: ${(err as Error).message}`);
  }
  try {
    let tables: Map<string, Set<string>>;
    try {
      const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>;
      tables = new Map(names.map((t) => [t.name, new Set((db.prepare(`PRAGMA table_info("${t.name.replace(/"/g, '""')}")`).all() as Array<{ name: string }>).map((c) => c.name))]));
    } catch (err) {
      throw notFetcharr(`${dbPath} is not a readable SQLite database (${(err as Error).message})`);
    }
    for (const [table, cols] of Object.entries(REQUIRED)) {
      const have = tables.get(table);
      if (!have || !cols.every((c) => have.has(c))) {
        throw notFetcharr(`${dbPath} is a SQLite file but not fetcharr's: it has no "${table}" table with ${cols.join(', ')}`);
      }
    }
    const problems: string[] = [];
    const migrations = tables.has('knex_migrations')
      ? readTable<{ name: string }>(db, 'knex_migrations', problems, 'id').map((m) => String(m.name))
      : [];
    const settings = new Map<string, string | null>();
    if (tables.has('settings')) {
      for (const r of readTable<{ key: unknown; value: unknown }>(db, 'settings', problems, 'rowid')) {
        if (typeof r.key === 'string') settings.set(r.key, r.value === null || r.value === undefined ? null : String(r.value));
      }
    } else problems.push('settings: the table is missing (no settings carried)');
    const syncs = tables.has('syncs') ? readTable<FetcharrSyncRow>(db, 'syncs', problems, 'id') : [];
    if (!tables.has('syncs')) problems.push('syncs: the table is missing (no sync history carried)');
    const comskip = path.join(path.dirname(dbPath), 'comskip.ini');
    return {
      configDir: path.dirname(dbPath),
      dbPath,
      migrations,
      settings,
      shows: readTable<FetcharrShowRow>(db, 'shows', problems, 'id'),
      recordings: readTable<FetcharrRecordingRow>(db, 'recordings', problems, 'rowid'),
      syncs,
      comskipIni: importFileOk(comskip, { inside: path.dirname(dbPath), maxBytes: IMPORT_CAPS.smallFile }) ? comskip : null,
      problems,
    };
  } finally {
    db.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}
