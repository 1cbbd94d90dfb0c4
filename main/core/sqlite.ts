import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

export interface Migration {
  /** Strictly increasing, starting at 1. */
  version: number;
  name: string;
  up(db: Db): void;
}

let nativeBinding: string | undefined;

/**
 * Where better-sqlite3's compiled addon comes from: its own build (Node's ABI, tests and
 * `npm start`) unless the Electron shell points it at the Electron-ABI build (docs/tray.md).
 */
export function useSqliteNativeBinding(file: string | undefined): void {
  nativeBinding = file;
}

/**
 * Opens (or creates) a SQLite file in WAL mode and applies pending migrations in order, each in
 * its own transaction, before returning. `PRAGMA user_version` records the applied version.
 */
export function openDatabase(file: string, migrations: readonly Migration[]): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

export function migrate(db: Db, migrations: readonly Migration[]): number {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration versions must run 1..n without gaps (saw ${m.version} at ${i + 1})`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
