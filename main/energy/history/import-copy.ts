import type { DurableStore } from './durable-store.js';
import { POWER_FIELDS, SAMPLE_FIELDS } from './sample.js';

/**
 * The import's bulk path: a source's rows go into the history in transactions of whole 10-minute
 * pages (copyRows), each chunk of rows read into JS once, where it is checked and where the
 * rollups of the pages it fills are folded from (nothing read back from the history). The
 * sources: sigen-home-bridge's history.db (import-sql.ts) and JSON history files (import-json.ts).
 * Rows per transaction adapt (`Chunker`) so each holds the write lock for about `txnMs`: the
 * service thread's own poll inserts never wait long.
 */

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

/**
 * Rows to copy into the history, read in order from a position that only `advance` moves:
 * `read(limit)` gives up to `limit` rows from there as `[t, ...SAMPLE_FIELDS]`; `insert(rows,
 * valid)` adds `valid` (those of `rows` that `check` accepts) to `samples` on the store's
 * connection and returns how many were new; `advance(rows)` moves past `rows`. `check` (JS) is
 * null when every row is valid by construction.
 */
export interface CopySource {
  read(limit: number): unknown[][] | Promise<unknown[][]>;
  insert(rows: unknown[][], valid: unknown[][]): number;
  advance(rows: unknown[][]): void;
  check: ((row: unknown[]) => boolean) | null;
}

/** What copyRows read and did. */
export interface Copied {
  /** Rows read. */
  covered: number;
  /** Of those, valid rows, and valid rows with a power value. */
  ok: number;
  withPower: number;
  imported: number;
}

/**
 * Copies `src` into `store`, one transaction per chunk (Chunker), which also rebuilds the minutes
 * and hours the chunk touched (DurableStore.bulkInsert). Calls `onChunk` after each transaction.
 */
export async function copyRows(store: DurableStore, src: CopySource, chunker: Chunker, onChunk: OnChunk): Promise<Copied> {
  const out: Copied = { covered: 0, ok: 0, withPower: 0, imported: 0 };
  for (;;) {
    const limit = chunker.size;
    const read = await src.read(limit);
    if (!read.length) return out;
    const rows = read;
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
    const inserted = valid.length ? store.bulkInsert(() => src.insert(rows, valid), () => [lo, hi]) : 0;
    chunker.took(read.length, performance.now() - t0);
    src.advance(rows);
    out.covered += rows.length;
    out.ok += valid.length;
    out.imported += inserted;
    await onChunk(rows.length, inserted);
  }
}

const POWER_AT = POWER_FIELDS.map((f) => 1 + SAMPLE_FIELDS.indexOf(f));
const hasPowerValue = (row: unknown[]) => POWER_AT.some((i) => row[i] !== null);
