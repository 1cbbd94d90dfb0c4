import { SIGEN_FIELD_OF, SIGEN_FIELDS, SIGEN_POWER_FIELDS } from '../import/sigen-history.js';
import type { DurableStore } from './durable-store.js';
import { copyRows, type Chunker, type CopySource, type OnChunk } from './import-copy.js';
import { SAMPLE_FIELDS } from './sample.js';

/**
 * sigen-home-bridge's `history.db` (a temporary copy) ATTACHed, only read, and copied by SQLite
 * (`INSERT OR IGNORE INTO samples SELECT … FROM old.samples`, a range of `t` per transaction:
 * copyRows); each range is read into JS once, where it is checked with the rules of `fromSigenRow`
 * (a safe-integer `t`, finite numbers or null), and a range with a row they refuse is copied with
 * the same checks in SQL.
 */

/** What the checks found in a source. */
export interface SourceCounts {
  /** Readable rows (samples). */
  rows: number;
  /** Rows that are not readable samples (a bad time or value). */
  unreadable: number;
  /** Readable rows that carry a power value. */
  withPower: number;
  /** Readable rows at or after the cutoff (to insert). */
  inRetention: number;
}

/** What a database source's `check` finds before anything is inserted. */
export interface SourceCheck {
  /** Whether any readable row carries a power value (a file without any is refused). */
  anyPower: boolean;
  /** Rows at or after the cutoff, readable or not (progress). */
  inRetention: number;
}

const MAX_DOUBLE = '1.7976931348623157e308';
const MAX_SAFE = '9007199254740991';
/** SQL: `x` is null or a finite number (what `fromSigenRow` accepts for a value). */
const finiteOrNull = (x: string) => `(${x} IS NULL OR (typeof(${x}) IN ('integer', 'real') AND ${x} BETWEEN -${MAX_DOUBLE} AND ${MAX_DOUBLE}))`;
/**
 * SQL: `t` is a safe integer (an integer-valued real too, as JS reads it). `+t`, not `t`: a range
 * on the primary key here would be taken for the range of the search (a scan from the start).
 */
const SAFE_T = `(typeof(t) IN ('integer', 'real') AND +t BETWEEN -${MAX_SAFE} AND ${MAX_SAFE} AND +t = CAST(t AS INTEGER))`;

const finiteOrNullJs = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));
/** `fromSigenRow`'s rules on a row read as `[t, ...SAMPLE_FIELDS]`: a safe-integer time, finite numbers or null. */
const validRow = (row: unknown[]) => Number.isSafeInteger(row[0]) && row.every((v, i) => i === 0 || finiteOrNullJs(v));

/**
 * sigen-home-bridge's `history.db` (already copied to `copy`) into `store`; null when the file has
 * no table with its columns. `check` is cheap (it stops at the first row with a power value).
 * `insert` copies every readable row at or after `cutoff` (copyRows: each row checked in JS as
 * it is read; a chunk with a bad row is copied with the same checks in SQL) and counts what it
 * read. Throws SQLite's error on a damaged page; the caller then reads the rest row by row.
 */
export function sigenDbSource(
  store: DurableStore,
  copy: string,
): { check(cutoff: number): SourceCheck; readable(): number; insert(cutoff: number, chunker: Chunker, onChunk: OnChunk): Promise<SourceCounts & { imported: number }>; detach(): void } | null {
  const db = store.db;
  // Our own temporary copy: only read here (SQLite may add its -shm beside it).
  db.prepare('ATTACH DATABASE ? AS old').run(copy);
  const detach = () => db.exec('DETACH DATABASE old');
  try {
    // A plain table only: a view (or anything else) named samples could run any query for as long as it likes.
    const type = db.prepare("SELECT type FROM old.sqlite_master WHERE name = 'samples' COLLATE NOCASE").pluck().get();
    const columns = new Set(type === 'table' ? (db.prepare("SELECT name FROM pragma_table_info('samples', 'old')").pluck().all() as string[]) : []);
    if (!columns.has('t') || !SIGEN_POWER_FIELDS.some((f) => columns.has(f))) {
      detach();
      return null;
    }
    const value = (f: string) => (columns.has(f) ? f : 'NULL');
    const valid = `(${SAFE_T} AND ${SIGEN_FIELDS.map((f) => finiteOrNull(value(f))).join(' AND ')})`;
    const power = `(${SIGEN_POWER_FIELDS.map((f) => `${value(f)} IS NOT NULL`).join(' OR ')})`;
    const ours = SIGEN_FIELDS.map((f) => SIGEN_FIELD_OF[f]);
    const sigenOf = new Map(SIGEN_FIELDS.map((f) => [SIGEN_FIELD_OF[f] as string, f]));
    const anyPower = db.prepare(`SELECT EXISTS (SELECT 1 FROM old.samples WHERE ${valid} AND ${power})`).pluck();
    const inRetention = db.prepare('SELECT count(*) FROM old.samples WHERE t > @after').pluck();
    const older = db.prepare(`SELECT count(*) FROM old.samples WHERE t <= @after AND ${valid}`).pluck();
    const copyWhere = (where: string) =>
      db.prepare(`INSERT OR IGNORE INTO main.samples (t, ${ours.join(', ')}) SELECT t, ${SIGEN_FIELDS.map(value).join(', ')} FROM old.samples WHERE t > @after AND t <= @last${where} ORDER BY t`);
    const insertAll = copyWhere('');
    const insertValid = copyWhere(` AND ${valid}`);
    const read = db.prepare(`SELECT t, ${SAMPLE_FIELDS.map((f) => value(sigenOf.get(f) ?? '')).join(', ')} FROM old.samples WHERE t > @after ORDER BY t LIMIT @limit`).raw();
    /** Rows from t > `after` on (its primary key: in `t` order). */
    const rowsAfter = (after: unknown): CopySource => ({
      read: (limit) => read.all({ after, limit }) as unknown[][],
      insert: (rows, valid) => (valid.length === rows.length ? insertAll : insertValid).run({ after, last: rows[rows.length - 1]![0] }).changes,
      advance: (rows) => (after = rows[rows.length - 1]![0]),
      check: validRow,
    });
    return {
      detach,
      readable() {
        return older.get({ after: Number.MAX_SAFE_INTEGER }) as number;
      },
      check(cutoff) {
        return { anyPower: anyPower.get() === 1, inRetention: inRetention.get({ after: cutoff - 1 }) as number };
      },
      async insert(cutoff, chunker, onChunk) {
        // From the cutoff on (t > cutoff - 1: a time is an integer): older rows stay behind, counted.
        const copied = await copyRows(store, rowsAfter(cutoff - 1), chunker, onChunk);
        const rows = (older.get({ after: cutoff - 1 }) as number) + copied.ok;
        return { rows, unreadable: copied.covered - copied.ok, withPower: copied.withPower, inRetention: copied.ok, imported: copied.imported };
      },
    };
  } catch (err) {
    detach();
    throw err;
  }
}


