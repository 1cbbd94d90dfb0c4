import type { Migration } from '../../core/sqlite.js';
import { MINUTE_COLUMNS, Rollups } from './rollups.js';
import { isPowerField, SAMPLE_FIELDS } from './sample.js';

/**
 * `samples`: one row per poll, keyed by `t` (INTEGER PRIMARY KEY, so the table is the time index).
 * `minutes`: a per-minute rollup (count, per-field sum and non-null count, min/max of power fields),
 * so downsampling by whole minutes reads 1/60 of the rows at 1 Hz.
 * `block_pages`: the 10 s rollup, one blob per sealed 10-minute page (block-pages.ts).
 * `sample_pages`: a sealed page's samples packed into one blob for the exports, with their count
 * (read without the blob where an export page ends, export.ts) (sample-pages.ts);
 * `sample_pages_due`: the sealed pages whose blob is still to be written (sample-page-fill.ts).
 * Both rollups are kept by DurableStore in the transaction that changes the samples: a poll's
 * insert adds itself to its minute (UPSERT_MINUTE_SQL); bulk inserts and the prune rebuild the
 * 10-minute pages they touched from the stored rows (rollups.ts). Up to migration 3 an insert
 * trigger kept the minutes; it ran for every row of a bulk insert too (0.5 s of CPU a week of
 * rows even when told to do nothing), so migration 4 drops it. A rollup rebuild also drops its
 * pages' sample blobs and marks the sealed ones due again.
 */
const sampleColumns = SAMPLE_FIELDS.map((f) => `${f} REAL`).join(', ');

const rollupColumns = SAMPLE_FIELDS.flatMap((f) => [
  `${f}_s REAL NOT NULL DEFAULT 0`,
  `${f}_c INTEGER NOT NULL DEFAULT 0`,
  ...(isPowerField(f) ? [`${f}_lo REAL`, `${f}_hi REAL`] : []),
]).join(', ');

const rollupNames = MINUTE_COLUMNS;

const rollupValues = (src: string) =>
  [
    `${src}.t / 60000`,
    '1',
    ...SAMPLE_FIELDS.flatMap((f) => [
      `coalesce(${src}.${f}, 0)`,
      `(${src}.${f} IS NOT NULL)`,
      ...(isPowerField(f) ? [`${src}.${f}`, `${src}.${f}`] : []),
    ]),
  ].join(', ');

const rollupUpdate = [
  'n = n + 1',
  ...SAMPLE_FIELDS.flatMap((f) => [
    `${f}_s = ${f}_s + excluded.${f}_s`,
    `${f}_c = ${f}_c + excluded.${f}_c`,
    ...(isPowerField(f)
      ? [`${f}_lo = coalesce(min(${f}_lo, excluded.${f}_lo), ${f}_lo, excluded.${f}_lo)`, `${f}_hi = coalesce(max(${f}_hi, excluded.${f}_hi), ${f}_hi, excluded.${f}_hi)`]
      : []),
  ]),
].join(', ');

/**
 * A poll's sample `?` (just inserted) added to its minute's rollup row, as the trigger of
 * migrations 1–3 did (its values as stored, after the columns' REAL affinity).
 */
export const UPSERT_MINUTE_SQL = `INSERT INTO minutes (${rollupNames.join(', ')}) SELECT ${rollupValues('samples')} FROM samples WHERE t = ?
  ON CONFLICT(m) DO UPDATE SET ${rollupUpdate}`;

/**
 * The rollup rows of minutes `@lo..@hi` from the samples they hold, as one GROUP BY: the SQL
 * statement of what rollups.ts builds (tests compare against it; the import bench's sqlite3 baseline runs it).
 */
export const REBUILD_MINUTES_SQL = `INSERT INTO minutes (${rollupNames.join(', ')})
  SELECT t / 60000, count(*), ${SAMPLE_FIELDS.flatMap((f) => [`total(${f})`, `count(${f})`, ...(isPowerField(f) ? [`min(${f})`, `max(${f})`] : [])]).join(', ')}
  FROM samples WHERE t >= @lo * 60000 AND t < (@hi + 1) * 60000 GROUP BY t / 60000`;

export const historyMigrations: Migration[] = [
  {
    version: 1,
    name: 'samples table with per-minute rollup',
    up(db) {
      db.exec(`CREATE TABLE samples (t INTEGER PRIMARY KEY, ${sampleColumns})`);
      db.exec(`CREATE TABLE minutes (m INTEGER PRIMARY KEY, n INTEGER NOT NULL, ${rollupColumns})`);
      db.exec(`CREATE TRIGGER samples_rollup AFTER INSERT ON samples BEGIN
        INSERT INTO minutes (${rollupNames.join(', ')}) VALUES (${rollupValues('NEW')})
        ON CONFLICT(m) DO UPDATE SET ${rollupUpdate};
      END`);
    },
  },
  {
    version: 2,
    name: 'bulk inserts merge the rollup per minute instead of per sample',
    up(db) {
      db.exec('CREATE TABLE bulk_insert (x INTEGER)');
      db.exec('DROP TRIGGER samples_rollup');
      db.exec(`CREATE TRIGGER samples_rollup AFTER INSERT ON samples WHEN NOT EXISTS (SELECT 1 FROM bulk_insert) BEGIN
        INSERT INTO minutes (${rollupNames.join(', ')}) VALUES (${rollupValues('NEW')})
        ON CONFLICT(m) DO UPDATE SET ${rollupUpdate};
      END`);
    },
  },
  {
    version: 3,
    name: 'sealed 10-minute pages of 10 s blocks (block-pages.ts), built for the samples already stored',
    up(db) {
      db.exec('CREATE TABLE block_pages (p INTEGER PRIMARY KEY, blocks BLOB NOT NULL)');
      new Rollups(db).rebuild(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    },
  },
  {
    version: 4,
    name: 'the minute rollup kept by the writers, not by a trigger that ran for every row of a bulk insert',
    up(db) {
      db.exec('DROP TRIGGER samples_rollup');
      db.exec('DROP TABLE bulk_insert');
    },
  },
  {
    version: 5,
    name: "sealed pages' samples packed for the exports, written in the background (every sealed page due)",
    up(db) {
      db.exec('CREATE TABLE sample_pages (p INTEGER PRIMARY KEY, n INTEGER NOT NULL, samples BLOB NOT NULL)');
      db.exec('CREATE TABLE sample_pages_due (p INTEGER PRIMARY KEY)');
      db.exec('INSERT INTO sample_pages_due SELECT p FROM block_pages');
    },
  },
];
