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
 *   transaction; the rows the WHERE refuses are counted by the same test negated. Its checks are
 *   those of `fromSigenRow` (a safe-integer `t`, finite numbers or null).
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

/** Called after each transaction: rows of the source it covered, rows it inserted. */
export type OnChunk = (covered: number, inserted: number) => Promise<void>;

/** What the checks found in a source before anything is inserted. */
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

/**
 * sigen-home-bridge's `history.db` (already copied to `copy`, read-only) into `store`, in SQL.
 * `check` gives the counts (a full scan: a damaged file throws here, before any insert);
 * `insert` copies every readable row at or after `cutoff`, and returns how many were new.
 * Throws SQLite's error on a damaged page; the caller falls back to reading row by row.
 */
export function sigenDbSource(store: DurableStore, copy: string): { check(cutoff: number): SourceCounts; insert(cutoff: number, chunker: Chunker, onChunk: OnChunk): Promise<number>; detach(): void } | null {
  const db = store.db;
  // Our own temporary copy: only read here (SQLite may add its -shm beside it).
  db.prepare('ATTACH DATABASE ? AS old').run(copy);
  const detach = () => db.exec('DETACH DATABASE old');
  try {
    const columns = new Set(db.prepare("SELECT name FROM pragma_table_info('samples', 'old')").pluck().all() as string[]);
    if (!columns.has('t') || !['pvPower', 'gridPower', 'batteryPower', 'loadPower'].some((f) => columns.has(f))) {
      detach();
      return null;
    }
    const value = (f: string) => (columns.has(f) ? f : 'NULL');
    const valid = `(${SAFE_T} AND ${SIGEN_FIELDS.map((f) => finiteOrNull(value(f))).join(' AND ')})`;
    const power = `(${['pvPower', 'gridPower', 'batteryPower', 'loadPower'].map((f) => `${value(f)} IS NOT NULL`).join(' OR ')})`;
    const ours = SIGEN_FIELDS.map((f) => SIGEN_FIELD_OF[f]);
    const counts = db.prepare(
      `SELECT count(*) FILTER (WHERE ${valid}), count(*) FILTER (WHERE NOT ${valid}), count(*) FILTER (WHERE ${valid} AND ${power}), count(*) FILTER (WHERE ${valid} AND t >= @cutoff) FROM old.samples`,
    );
    // One range of the source by `t` (its primary key): where it ends, and the valid times in it.
    const span = db.prepare(`SELECT max(t), count(*), min(t) FILTER (WHERE ${SAFE_T}), max(t) FILTER (WHERE ${SAFE_T}) FROM (SELECT t FROM old.samples WHERE t > @after ORDER BY t LIMIT @limit)`).raw();
    const insert = db.prepare(
      `INSERT OR IGNORE INTO main.samples (t, ${ours.join(', ')}) SELECT t, ${SIGEN_FIELDS.map(value).join(', ')} FROM old.samples WHERE t > @after AND t <= @last AND ${valid} ORDER BY t`,
    );
    return {
      detach,
      check(cutoff) {
        const [rows, unreadable, withPower, inRetention] = counts.raw().get({ cutoff }) as number[];
        return { rows: rows!, unreadable: unreadable!, withPower: withPower!, inRetention: inRetention! };
      },
      async insert(cutoff, chunker, onChunk) {
        // From the cutoff on (t > cutoff - 1: a time is an integer): older rows stay behind.
        let after: unknown = cutoff - 1;
        let total = 0;
        for (;;) {
          const t0 = performance.now();
          const [last, covered, lo, hi] = span.get({ after, limit: chunker.size }) as [unknown, number, number | null, number | null];
          if (!covered) return total;
          const inserted = store.bulkInsert(
            () => insert.run({ after, last }).changes,
            () => [lo ?? 0, hi ?? -1],
          );
          chunker.took(covered, performance.now() - t0);
          total += inserted;
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
  const span = db.prepare('SELECT max(rowid), count(*), min(t) FILTER (WHERE t >= @cutoff), max(t) FILTER (WHERE t >= @cutoff) FROM (SELECT rowid, t FROM temp.import_stage WHERE rowid > @after ORDER BY rowid LIMIT @limit)').raw();
  const insert = db.prepare(`INSERT OR IGNORE INTO main.samples (${STAGE_COLUMNS}) SELECT ${STAGE_COLUMNS} FROM temp.import_stage WHERE rowid > @after AND rowid <= @last AND t >= @cutoff ORDER BY rowid`);
  const values: unknown[] = new Array(1 + SAMPLE_FIELDS.length);
  const putSample = (s: HistorySample) => {
    values[0] = s.t;
    for (let i = 0; i < SAMPLE_FIELDS.length; i++) values[i + 1] = s[SAMPLE_FIELDS[i]!];
    put.run(values);
  };
  /** A sigen-home-bridge row straight into `values` (no object built); false when it is not readable. */
  const sigenIdx = SIGEN_FIELDS.map((f) => 1 + SAMPLE_FIELDS.indexOf(SIGEN_FIELD_OF[f]));
  const putSigen = (o: unknown): boolean => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;
    const row = o as Record<string, unknown>;
    const t = row.t;
    if (typeof t !== 'number' || !Number.isSafeInteger(t)) return false;
    values.fill(null);
    values[0] = t;
    for (let k = 0; k < SIGEN_FIELDS.length; k++) {
      const v = row[SIGEN_FIELDS[k]!];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'number' || !Number.isFinite(v)) return false;
      values[sigenIdx[k]!] = v;
    }
    put.run(values);
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
    counts(cutoff: number): SourceCounts {
      const [rows, withPower, inRetention] = counts.get({ cutoff }) as number[];
      return { rows: rows!, unreadable: 0, withPower: withPower!, inRetention: inRetention! };
    },
    async insert(cutoff: number, chunker: Chunker, onChunk: OnChunk): Promise<number> {
      let after = 0;
      let total = 0;
      for (;;) {
        const t0 = performance.now();
        const [last, covered, lo, hi] = span.get({ after, limit: chunker.size, cutoff }) as [number, number, number | null, number | null];
        if (!covered) return total;
        const inserted = lo === null ? 0 : store.bulkInsert(
          () => insert.run({ after, last, cutoff }).changes,
          () => [lo, hi!],
        );
        chunker.took(covered, performance.now() - t0);
        total += inserted;
        after = last;
        await onChunk(covered, inserted);
      }
    },
    drop() {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.exec('DROP TABLE IF EXISTS temp.import_stage');
    },
  };
}
