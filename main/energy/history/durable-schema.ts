import type { Migration } from '../../core/sqlite.js';
import { rollUpPages } from './block-pages.js';
import { isPowerField, SAMPLE_FIELDS } from './sample.js';

/**
 * `samples`: one row per poll, keyed by `t` (INTEGER PRIMARY KEY, so the table is the time index).
 * `minutes`: a per-minute rollup (count, per-field sum and non-null count, min/max of power fields)
 * kept by an insert trigger, so downsampling by whole minutes reads 1/60 of the rows at 1 Hz.
 * Retention pruning deletes old rows from both and rebuilds the minute it cuts through.
 * A bulk insert (an import) skips the trigger: inside its own transaction it puts a row in
 * `bulk_insert`, which no other connection ever sees, and rebuilds the minutes it touched once, by
 * one GROUP BY (REBUILD_MINUTES_SQL), instead of once per sample.
 * `block_pages`: the 10 s rollup, one blob per sealed 10-minute page (block-pages.ts), kept by
 * DurableStore (rollUpAfterInsert for the poll's insert, rollUpRange for bulk inserts) and by the prune.
 */
const sampleColumns = SAMPLE_FIELDS.map((f) => `${f} REAL`).join(', ');

const rollupColumns = SAMPLE_FIELDS.flatMap((f) => [
  `${f}_s REAL NOT NULL DEFAULT 0`,
  `${f}_c INTEGER NOT NULL DEFAULT 0`,
  ...(isPowerField(f) ? [`${f}_lo REAL`, `${f}_hi REAL`] : []),
]).join(', ');

const rollupNames = ['m', 'n', ...SAMPLE_FIELDS.flatMap((f) => [`${f}_s`, `${f}_c`, ...(isPowerField(f) ? [`${f}_lo`, `${f}_hi`] : [])])];

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

/** Rebuilds the rollup rows of minutes `@lo..@hi` from the samples they hold (used after a prune). */
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
      rollUpPages(db, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    },
  },
];
