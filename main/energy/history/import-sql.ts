import { SIGEN_FIELD_OF, SIGEN_FIELDS } from '../import/sigen-history.js';
import type { DurableStore } from './durable-store.js';
import { readJsonArrayText } from './json-array-stream.js';
import { legacySample } from './legacy-import.js';
import { POWER_FIELDS, SAMPLE_FIELDS, type HistorySample } from './sample.js';

/**
 * The import's bulk path, with the rows kept in SQLite (C) instead of as JS objects:
 *
 * - sigen-home-bridge's `history.db` (a temporary copy) is ATTACHed, only read, and copied with
 *   `INSERT OR IGNORE INTO samples SELECT … FROM old.samples WHERE <valid>`, a range of `t` per
 *   transaction; the range query counts the rows the checks refuse. The checks are those of
 *   `fromSigenRow` (a safe-integer `t`, finite numbers or null).
 * - A JSON file is parsed a chunk at a time (JSON.parse of a batch of elements: SQLite's json_each
 *   measured 3–8x slower on the same batches) into a TEMP staging table of this connection (its
 *   own file, no lock on the history), checked row by row as before; only a file read to its end
 *   is then copied into `samples`, a range of the staging table per transaction. So a malformed
 *   legacy file is never half-imported, and a file is parsed once.
 *
 * Each transaction ends with `DurableStore.rollUpRange` over the times it inserted (see
 * `DurableStore.bulkInsert`). Rows per transaction adapt (`Chunker`) so each holds the write lock
 * for about `txnMs`: the service thread's own poll inserts never wait long.
 */

const MAX_DOUBLE = '1.7976931348623157e308';
const MAX_SAFE = '9007199254740991';
/** SQL: `x` is null or a finite number (what `fromSigenRow` accepts for a value). */
const finiteOrNull = (x: string) => `(${x} IS NULL OR (typeof(${x}) IN ('integer', 'real') AND ${x} BETWEEN -${MAX_DOUBLE} AND ${MAX_DOUBLE}))`;
/**
 * SQL: `t` is a safe integer (an integer-valued real too, as JS reads it). `+t`, not `t`: a range
 * on the primary key here would be taken for the range of the search (a scan from the start).
 */
const SAFE_T = `(typeof(t) IN ('integer', 'real') AND +t BETWEEN -${MAX_SAFE} AND ${MAX_SAFE} AND +t = CAST(t AS INTEGER))`;

/** Adaptive rows per transaction: about `txnMs` of write lock each. */
export class Chunker {
  size: number;
  constructor(
    private readonly txnMs: number,
    private readonly min: number,
    private readonly max: number,
  ) {
    this.size = min;
  }
  /** Adjusts the size after `rows` took `ms`. */
  took(rows: number, ms: number): void {
    if (rows < this.size) return;
    this.size = Math.max(this.min, Math.min(this.max, Math.round((this.size * this.txnMs) / Math.max(ms, 0.5))));
  }
}

/** Called after each transaction: rows of the source it covered (at or after the cutoff), rows it inserted. */
export type OnChunk = (covered: number, inserted: number) => Promise<void>;

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

/**
 * sigen-home-bridge's `history.db` (already copied to `copy`) into `store`, in SQL; null when the
 * file has no table with its columns. `check` is cheap (it stops at the first row with a power
 * value). `insert` copies every readable row at or after `cutoff` (each row's checks evaluated
 * once, in the range query; a range with no bad row is copied without them) and counts what it
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
    const columns = new Set(db.prepare("SELECT name FROM pragma_table_info('samples', 'old')").pluck().all() as string[]);
    if (!columns.has('t') || !SIGEN_POWER.some((f) => columns.has(f))) {
      detach();
      return null;
    }
    const value = (f: string) => (columns.has(f) ? f : 'NULL');
    const valid = `(${SAFE_T} AND ${SIGEN_FIELDS.map((f) => finiteOrNull(value(f))).join(' AND ')})`;
    const power = `(${SIGEN_POWER.map((f) => `${value(f)} IS NOT NULL`).join(' OR ')})`;
    const ours = SIGEN_FIELDS.map((f) => SIGEN_FIELD_OF[f]);
    const anyPower = db.prepare(`SELECT EXISTS (SELECT 1 FROM old.samples WHERE ${valid} AND ${power})`).pluck();
    const inRetention = db.prepare('SELECT count(*) FROM old.samples WHERE t > @after').pluck();
    const older = db.prepare(`SELECT count(*) FROM old.samples WHERE t <= @after AND ${valid}`).pluck();
    // One range of the source by `t` (its primary key): where it ends, how many rows, how many
    // readable, and their times. The LIMIT keeps the subquery apart, so `ok` is evaluated once a row.
    const span = db
      .prepare(`SELECT max(t), count(*), total(ok), min(t) FILTER (WHERE ok), max(t) FILTER (WHERE ok), total(ok AND ${power}) FROM (SELECT t, ${valid} AS ok, ${SIGEN_POWER.map(value).join(', ')} FROM old.samples WHERE t > @after ORDER BY t LIMIT @limit)`)
      .raw();
    const copyRows = (where: string) =>
      db.prepare(`INSERT OR IGNORE INTO main.samples (t, ${ours.join(', ')}) SELECT t, ${SIGEN_FIELDS.map(value).join(', ')} FROM old.samples WHERE t > @after AND t <= @last${where} ORDER BY t`);
    const insertAll = copyRows('');
    const insertValid = copyRows(` AND ${valid}`);
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
        let after: unknown = cutoff - 1;
        const out = { rows: older.get({ after }) as number, unreadable: 0, withPower: 0, inRetention: 0, imported: 0 };
        for (;;) {
          const t0 = performance.now();
          const [last, covered, ok, lo, hi, withPower] = span.get({ after, limit: chunker.size }) as [unknown, number, number, number | null, number | null, number];
          if (!covered) return out;
          const insert = ok === covered ? insertAll : insertValid;
          const inserted = lo === null ? 0 : store.bulkInsert(
            () => insert.run({ after, last }).changes,
            () => [lo, hi!],
          );
          chunker.took(covered, performance.now() - t0);
          out.rows += ok;
          out.inRetention += ok;
          out.unreadable += covered - ok;
          out.withPower += withPower;
          out.imported += inserted;
          after = last;
          await onChunk(covered, inserted);
        }
      },
    };
  } catch (err) {
    detach();
    throw err;
  }
}

const SIGEN_POWER = ['pvPower', 'gridPower', 'batteryPower', 'loadPower'];

const STAGE_COLUMNS = ['t', ...SAMPLE_FIELDS].join(', ');

/**
 * A staging table for one JSON file on `store`'s connection (TEMP: a file of this connection's
 * own, no lock on the history). `load` fills it from the file (throws what reading or checking
 * the file throws, leaving it empty); `insert` copies it into the history; `drop` removes it.
 */
export function jsonStage(store: DurableStore) {
  const db = store.db;
  db.exec('DROP TABLE IF EXISTS temp.import_stage');
  db.exec(`CREATE TEMP TABLE import_stage (t INTEGER NOT NULL, ${SAMPLE_FIELDS.map((f) => `${f} REAL`).join(', ')})`);
  const put = db.prepare(`INSERT INTO temp.import_stage (${STAGE_COLUMNS}) VALUES (${['t', ...SAMPLE_FIELDS].map(() => '?').join(', ')})`);
  const power = POWER_FIELDS.map((f) => `${f} IS NOT NULL`).join(' OR ');
  const counts = db.prepare(`SELECT count(*), count(*) FILTER (WHERE ${power}), count(*) FILTER (WHERE t >= @cutoff) FROM temp.import_stage`).raw();
  // Ranges of the staging table in file order (rowid): the first of two rows with the same `t` wins, as one by one.
  const span = db.prepare('SELECT max(rowid), count(*), count(*) FILTER (WHERE t >= @cutoff), min(t) FILTER (WHERE t >= @cutoff), max(t) FILTER (WHERE t >= @cutoff) FROM (SELECT rowid, t FROM temp.import_stage WHERE rowid > @after ORDER BY rowid LIMIT @limit)').raw();
  const insert = db.prepare(`INSERT OR IGNORE INTO main.samples (${STAGE_COLUMNS}) SELECT ${STAGE_COLUMNS} FROM temp.import_stage WHERE rowid > @after AND rowid <= @last AND t >= @cutoff ORDER BY rowid`);
  const values: unknown[] = new Array(1 + SAMPLE_FIELDS.length);
  const putSample = (s: HistorySample) => {
    values[0] = s.t;
    for (let i = 0; i < SAMPLE_FIELDS.length; i++) values[i + 1] = s[SAMPLE_FIELDS[i]!];
    put.run(values);
  };
  /** A sigen-home-bridge row straight into its columns (no object built); false when it is not readable (fromSigenRow's rules). */
  const putSigenRow = db.prepare(`INSERT INTO temp.import_stage (t, ${SIGEN_FIELDS.map((f) => SIGEN_FIELD_OF[f]).join(', ')}) VALUES (${['t', ...SIGEN_FIELDS].map(() => '?').join(', ')})`);
  const sigenValues: unknown[] = new Array(1 + SIGEN_FIELDS.length);
  const putSigen = (o: unknown): boolean => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;
    const row = o as Record<string, unknown>;
    const t = row.t;
    if (typeof t !== 'number' || !Number.isSafeInteger(t)) return false;
    sigenValues[0] = t;
    for (let k = 0; k < SIGEN_FIELDS.length; k++) {
      const v = row[SIGEN_FIELDS[k]!];
      if (v === undefined || v === null) sigenValues[k + 1] = null;
      else if (typeof v !== 'number' || !Number.isFinite(v)) return false;
      else sigenValues[k + 1] = v;
    }
    putSigenRow.run(sigenValues);
    return true;
  };

  return {
    /**
     * Reads `file` into the stage in one transaction of this connection's TEMP database; returns
     * how many sigen-home-bridge rows were not readable. Legacy
     * entries throw on the first bad one (naming it); sigen-home-bridge's bad rows are counted.
     * Throws JsonArrayError when the file is not one JSON array.
     */
    load(file: string, format: 'legacy-json' | 'sigen-json'): { unreadable: number } {
      let unreadable = 0;
      db.exec('BEGIN');
      try {
        for (const batch of readJsonArrayText(file)) {
          let items: unknown[] | null = null;
          try {
            items = JSON.parse(batch.text) as unknown[];
          } catch {
            // some element is not valid JSON: parsed one by one below
          }
          if (!items) {
            const parsed = batch.parse();
            if (format === 'legacy-json' && parsed.bad.length) throw new Error(`entry ${parsed.bad[0]!.index}: not valid JSON (${parsed.bad[0]!.message})`);
            const bad = new Set(parsed.bad.map((b) => b.index));
            parsed.items.forEach((item, k) => {
              if (bad.has(parsed.first + k)) unreadable++;
              else if (format === 'legacy-json') putSample(legacySample(item, parsed.first + k));
              else if (!putSigen(item)) unreadable++;
            });
            continue;
          }
          if (format === 'legacy-json') for (let k = 0; k < items.length; k++) putSample(legacySample(items[k], batch.first + k));
          else for (let k = 0; k < items.length; k++) if (!putSigen(items[k])) unreadable++;
        }
        db.exec('COMMIT');
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
      return { unreadable };
    },
    /** What the stage holds (readable rows only: `load` counted the others). */
    counts(cutoff: number): Omit<SourceCounts, 'unreadable'> {
      const [rows, withPower, inRetention] = counts.get({ cutoff }) as number[];
      return { rows: rows!, withPower: withPower!, inRetention: inRetention! };
    },
    async insert(cutoff: number, chunker: Chunker, onChunk: OnChunk): Promise<number> {
      let after = 0;
      let total = 0;
      for (;;) {
        const t0 = performance.now();
        const [last, covered, kept, lo, hi] = span.get({ after, limit: chunker.size, cutoff }) as [number, number, number, number | null, number | null];
        if (!covered) return total;
        const inserted = lo === null ? 0 : store.bulkInsert(
          () => insert.run({ after, last, cutoff }).changes,
          () => [lo, hi!],
        );
        chunker.took(covered, performance.now() - t0);
        total += inserted;
        after = last;
        await onChunk(kept, inserted);
      }
    },
    drop() {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.exec('DROP TABLE IF EXISTS temp.import_stage');
    },
  };
}
