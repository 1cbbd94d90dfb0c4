import type { Db, Migration } from '../../core/sqlite.js';
import { SAMPLE_FIELDS } from './sample.js';

/**
 * `<dataDir>/energy/history.db`, three tiers, all driven by SAMPLE_FIELDS:
 * - `samples`: one row per poll, keyed by `t` (epoch ms), one REAL column per field; kept for the
 *   raw retention (default 7 days).
 * - `minute` and `hour`: one row per minute or hour (`k` = t / unit), with the sample count `n`
 *   and per field its sum `_s`, non-null count `_c` (mean = sum / count), min `_lo` and max `_hi`.
 *   Minutes are kept for the minute retention (default 400 days), hours for good.
 * A poll writes its sample, minute and hour in one transaction; an import rebuilds the tiers it
 * touched in its own. A new field: one line in SAMPLE_FIELDS plus a migration calling `addFieldColumns`.
 * Migrations 2-5 (block and packed sample pages) are no-ops now; a file at 5 upgrades in the
 * background: the `upgrade` row says from where down the tiers are still to be built.
 */
export const TIERS = { minute: 60_000, hour: 3_600_000 } as const;
export type Tier = keyof typeof TIERS;

export const tierColumns = (f: string): string[] => [`${f}_s`, `${f}_c`, `${f}_lo`, `${f}_hi`];
const tierColumnTypes = (f: string) => [`${f}_s REAL NOT NULL DEFAULT 0`, `${f}_c INTEGER NOT NULL DEFAULT 0`, `${f}_lo REAL`, `${f}_hi REAL`];

/** Adds a new sample field's columns to every tier (the migration for one more field). */
export function addFieldColumns(db: Db, field: string): void {
  db.exec(`ALTER TABLE samples ADD COLUMN ${field} REAL`);
  for (const tier of Object.keys(TIERS)) for (const c of tierColumnTypes(field)) db.exec(`ALTER TABLE ${tier} ADD COLUMN ${c}`);
}

const noLongerBuilt = (version: number, name: string): Migration => ({ version, name: `${name} (dropped by 6)`, up() {} });

export const historyMigrations: Migration[] = [
  {
    version: 1,
    name: 'samples table',
    up(db) {
      db.exec(`CREATE TABLE samples (t INTEGER PRIMARY KEY, ${SAMPLE_FIELDS.map((f) => `${f} REAL`).join(', ')})`);
    },
  },
  noLongerBuilt(2, 'bulk inserts merge the rollup per minute'),
  noLongerBuilt(3, 'sealed 10-minute block pages'),
  noLongerBuilt(4, 'minute rollup kept by the writers'),
  noLongerBuilt(5, 'packed sample pages'),
  {
    version: 6,
    name: 'minute and hour tiers; the block and sample pages are dropped by the background upgrade',
    up(db) {
      for (const tier of Object.keys(TIERS)) db.exec(`CREATE TABLE ${tier} (k INTEGER PRIMARY KEY, n INTEGER NOT NULL, ${SAMPLE_FIELDS.flatMap(tierColumnTypes).join(', ')})`);
      // Versions 1-3 kept the old rollup with an insert trigger.
      db.exec('DROP TRIGGER IF EXISTS samples_rollup');
      db.exec('CREATE TABLE upgrade (below INTEGER NOT NULL)');
      const last = db.prepare('SELECT max(t) FROM samples').pluck().get() as number | null;
      const old = OLD_TABLES.some((t) => db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(t));
      // Tiers are built from the newest hour down; everything from `below` on is in them.
      if (last !== null || old) db.prepare('INSERT INTO upgrade (below) VALUES (?)').run(last === null ? 0 : (Math.floor(last / TIERS.hour) + 1) * TIERS.hour);
    },
  },
];

/** What versions 1-5 kept and the upgrade drops once the tiers are built. */
export const OLD_TABLES = ['minutes', 'block_pages', 'sample_pages', 'sample_pages_due', 'bulk_insert'];
