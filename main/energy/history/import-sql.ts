import fs from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { startWorker } from '../../core/worker.js';
import type { Db } from '../../core/sqlite.js';
import { SIGEN_FIELD_OF, SIGEN_FIELDS, SIGEN_POWER_FIELDS } from '../import/sigen-history.js';
import { PAGE_MS, pageOf } from './block-pages.js';
import type { DurableStore } from './durable-store.js';
import { readJsonRows, type JsonRowCounts } from './json-rows.js';
import { decodeRecords, SampleStage } from './sample-stage.js';
import type { SigenJsonMessage } from './sigen-json-worker.js';
import { POWER_FIELDS, SAMPLE_FIELDS } from './sample.js';

/**
 * The import's bulk path: a source's rows go into the history in transactions of whole 10-minute
 * pages (copyRows), each chunk of rows read into JS once, where it is checked and where the
 * rollups of the pages it fills are folded from (nothing read back from the history):
 *
 * - sigen-home-bridge's `history.db` (a temporary copy) is ATTACHed, only read, and copied by
 *   SQLite (`INSERT OR IGNORE INTO samples SELECT … FROM old.samples`, a range of `t` per
 *   transaction); the JS checks are those of `fromSigenRow` (a safe-integer `t`, finite numbers or
 *   null), and a range with a row they refuse is copied with the same checks in SQL.
 * - A JSON file is parsed a window of entries at a time (json-rows.ts; SQLite's json_each measured
 *   3–8x slower on the same batches) and checked row by row; its rows are inserted in the file's
 *   order with multi-row bound inserts. Our own legacy file goes to a stage on disk first
 *   (sample-stage.ts), and only a file read to its end is inserted: a malformed legacy file is
 *   never half-imported. sigen-home-bridge's history.json, which is imported as far as it can be
 *   read anyway (a damaged one is salvaged), is read on a thread of its own while its first rows
 *   are already inserted (sigen-json-worker.ts).
 *
 * Rows per transaction adapt (`Chunker`) so each holds the write lock for about `txnMs`: the
 * service thread's own poll inserts never wait long.
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
 * Rows to copy into the history, read in order from a position that only `advance` moves:
 * `read(limit)` gives up to `limit` rows from there as `[t, ...SAMPLE_FIELDS]`; `insert(rows,
 * valid)` adds `valid` (those of `rows` that `check` accepts) to `samples` on the store's
 * connection and returns how many were new; `advance(rows)` moves past `rows`. `check` (JS) is
 * null when every row is valid by construction.
 */
interface CopySource {
  read(limit: number): unknown[][] | Promise<unknown[][]>;
  insert(rows: unknown[][], valid: unknown[][]): number;
  advance(rows: unknown[][]): void;
  check: ((row: unknown[]) => boolean) | null;
}

/** What copyRows read and did. */
interface Copied {
  /** Rows read. */
  covered: number;
  /** Of those, valid rows, and valid rows with a power value. */
  ok: number;
  withPower: number;
  imported: number;
}

/**
 * Copies `src` into `store`, one transaction per chunk (Chunker). A chunk in time order ends at a
 * 10-minute page boundary, and when the pages it fills held nothing before, the rollups are folded
 * from its rows instead of read back from the table (DurableStore.bulkInsert). Calls `onChunk`
 * after each transaction.
 */
async function copyRows(store: DurableStore, src: CopySource, chunker: Chunker, onChunk: OnChunk): Promise<Copied> {
  const out: Copied = { covered: 0, ok: 0, withPower: 0, imported: 0 };
  for (;;) {
    const limit = chunker.size;
    const read = await src.read(limit);
    if (!read.length) return out;
    // A full read in time order may end inside a page: that page waits for the next chunk, whole.
    const rows = read.length === limit && increasing(read) ? wholePages(read) : read;
    const valid = src.check ? rows.filter(src.check) : rows;
    let lo = Infinity;
    let hi = -Infinity;
    for (const row of valid) {
      const t = row[0] as number;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
      if (hasPowerValue(row)) out.withPower++;
    }
    // Timed alone: the write lock is held from BEGIN IMMEDIATE to COMMIT (reading the chunk is not).
    const t0 = performance.now();
    const inserted = valid.length ? store.bulkInsert(() => src.insert(rows, valid), () => [lo, hi], increasing(valid) ? valid : undefined) : 0;
    chunker.took(read.length, performance.now() - t0);
    src.advance(rows);
    out.covered += rows.length;
    out.ok += valid.length;
    out.imported += inserted;
    await onChunk(rows.length, inserted);
  }
}

/** Whether each row's `t` is a number larger than the one before. */
function increasing(rows: unknown[][]): boolean {
  let last = -Infinity;
  for (const row of rows) {
    const t = row[0];
    if (typeof t !== 'number' || !(t > last)) return false;
    last = t;
  }
  return true;
}

/** `rows` (increasing `t`) without those of the last 10-minute page they reach, unless that is all of them. */
function wholePages(rows: unknown[][]): unknown[][] {
  const edge = pageOf(rows[rows.length - 1]![0] as number) * PAGE_MS;
  let k = rows.length;
  while (k > 0 && (rows[k - 1]![0] as number) >= edge) k--;
  return k > 0 ? rows.slice(0, k) : rows;
}

const POWER_AT = POWER_FIELDS.map((f) => 1 + SAMPLE_FIELDS.indexOf(f));
const hasPowerValue = (row: unknown[]) => POWER_AT.some((i) => row[i] !== null);
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
    const columns = new Set(db.prepare("SELECT name FROM pragma_table_info('samples', 'old')").pluck().all() as string[]);
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


/**
 * Rows bound per statement: one call per row cost twice the CPU. The values are passed as
 * arguments, not as one array, which better-sqlite3 reads element by element through Node-API
 * (20 % more CPU for the same inserts).
 */
const ROWS_PER_INSERT = 256;

/**
 * Inserts rows `[t, ...SAMPLE_FIELDS]` into `samples`, binding `t` and the fields `fields` marks
 * (the others are left null: sigen-home-bridge's rows fill 6 of 10); returns how many were new.
 */
function rowInserter(db: Db, fields: readonly boolean[]): (rows: unknown[][]) => number {
  const at = [0, ...SAMPLE_FIELDS.flatMap((_, i) => (fields[i] ? [i + 1] : []))];
  const sql = (n: number) => `INSERT OR IGNORE INTO main.samples (${at.map((i) => (i ? SAMPLE_FIELDS[i - 1] : 't')).join(', ')}) VALUES ${new Array(n).fill(`(${at.map(() => '?').join(', ')})`).join(', ')}`;
  const many = db.prepare(sql(ROWS_PER_INSERT));
  const one = db.prepare(sql(1));
  const params: unknown[] = new Array(ROWS_PER_INSERT * at.length);
  return (rows) => {
    let added = 0;
    for (let k = 0; k < rows.length; ) {
      const n = rows.length - k >= ROWS_PER_INSERT ? ROWS_PER_INSERT : 1;
      let j = 0;
      for (let r = k; r < k + n; r++) {
        const row = rows[r]!;
        for (const i of at) params[j++] = row[i];
      }
      added += (n === 1 ? one.run(...params.slice(0, at.length)) : many.run(...params)).changes;
      k += n;
    }
    return added;
  };
}

/**
 * Our own legacy JSON file's rows on their way into `store`: `load` reads and checks the whole file
 * into a stage on disk (sample-stage.ts; throws what reading or checking the file throws, with
 * nothing inserted), keeping the rows at or after `cutoff`; `insert` adds them to the history in
 * the file's order (of two rows with the same `t`, the first stays, as when inserted one by one);
 * `drop` removes the stage.
 */
export function legacyJsonStage(store: DurableStore) {
  const stage = new SampleStage();
  let from = 0;
  let insert: ReturnType<typeof rowInserter> | null = null;
  const source: CopySource = {
    read: (limit) => stage.read(from, limit),
    insert: (_rows, valid) => (insert ??= rowInserter(store.db, stage.present))(valid),
    advance: (rows) => (from += rows.length),
    check: null,
  };
  return {
    /** Reads `file` into the stage, keeping rows at or after `cutoff`; returns what it found. */
    load(file: string, cutoff: number): JsonRowCounts {
      const counts = readJsonRows(file, 'legacy-json', cutoff, stage);
      stage.flush();
      return counts;
    },
    async insert(chunker: Chunker, onChunk: OnChunk): Promise<number> {
      return (await copyRows(store, source, chunker, onChunk)).imported;
    },
    drop() {
      stage.close();
    },
  };
}

/** sigen-home-bridge's history.json could not be read as one JSON array past `imported` rows (read it whole to salvage the rest). */
export class JsonDamagedError extends Error {}

/**
 * sigen-home-bridge's history.json into `store`, read on a thread of its own (sigen-json-worker.ts)
 * while its rows are inserted, in the file's order, from `cutoff` on. `start()` resolves once a
 * row with a power value has been read (nothing is inserted before: a file without one is
 * refused untouched) or the file has been read to its end, with the counts so far; `insert` adds
 * the rows and returns what the file held. Both reject with JsonDamagedError when the file turns
 * out not to be one JSON array, with the error of reading it otherwise. `close` ends the reader.
 */
export function sigenJsonRows(store: DurableStore, file: string, cutoff: number) {
  const ahead = new Int32Array(new SharedArrayBuffer(4));
  const returned = new MessageChannel();
  const reader = startWorker('sigen-json-worker', import.meta.url, { file, cutoff, ahead: ahead.buffer, returned: returned.port2 }, { maxYoungGenerationSizeMb: 16 }, [returned.port2]);
  const chunks: Array<{ data: Float64Array<ArrayBuffer>; count: number }> = [];
  let counts: JsonRowCounts = { rows: 0, withPower: 0, inRetention: 0, unreadable: 0, bytes: 0 };
  let ended = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const heard = () => new Promise<void>((resolve) => (wake = resolve));
  const notify = () => {
    wake?.();
    wake = null;
  };
  reader.on('message', (m: SigenJsonMessage) => {
    if (m.type === 'rows') {
      chunks.push({ data: m.data, count: m.count });
      counts = m.counts;
    } else if (m.type === 'end') {
      counts = m.counts;
      ended = true;
    } else failure = m.type === 'damaged' ? new JsonDamagedError(m.message) : new Error(m.message);
    notify();
  });
  reader.on('error', (err) => {
    failure ??= err;
    notify();
  });
  reader.on('exit', () => {
    if (!ended) failure ??= new Error('the history file reader stopped');
    notify();
  });
  /** Rows taken from the chunks, not yet inserted. */
  let pending: unknown[][] = [];
  const source: CopySource = {
    async read(limit) {
      while (pending.length < limit) {
        if (failure) throw failure;
        const chunk = chunks.shift();
        if (chunk) {
          decodeRecords(chunk.data, chunk.count, pending);
          // Its buffer goes back to be filled again, and one more chunk may be read ahead.
          returned.port1.postMessage(chunk.data, [chunk.data.buffer]);
          Atomics.sub(ahead, 0, 1);
          Atomics.notify(ahead, 0);
        } else if (ended) break;
        else await heard();
      }
      return pending.length <= limit ? pending : pending.slice(0, limit);
    },
    insert: (() => {
      const sigenFields = SAMPLE_FIELDS.map((f) => SIGEN_FIELDS.some((s) => SIGEN_FIELD_OF[s] === f));
      let insert: ReturnType<typeof rowInserter> | null = null;
      return (_rows: unknown[][], valid: unknown[][]) => (insert ??= rowInserter(store.db, sigenFields))(valid);
    })(),
    advance: (rows) => {
      pending = pending.length === rows.length ? [] : pending.slice(rows.length);
    },
    check: null,
  };
  return {
    /** The counts so far; `bytes` of the file's size read. */
    counts: () => counts,
    async start(): Promise<JsonRowCounts> {
      while (!failure && !ended && counts.withPower === 0) await heard();
      if (failure) throw failure;
      return counts;
    },
    async insert(chunker: Chunker, onChunk: OnChunk): Promise<{ imported: number; counts: JsonRowCounts }> {
      const { imported } = await copyRows(store, source, chunker, onChunk);
      return { imported, counts };
    },
    close() {
      void reader.terminate();
      returned.port1.close();
    },
    /** The file's size, for an estimate of the rows to come. */
    size: () => fs.statSync(file).size,
  };
}
