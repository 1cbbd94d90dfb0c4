import fs from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import type { Db } from '../../core/sqlite.js';
import { startWorker } from '../../core/worker.js';
import { SIGEN_FIELD_OF, SIGEN_FIELDS } from '../import/sigen-history.js';
import type { DurableStore } from './durable-store.js';
import { copyRows, type Chunker, type CopySource, type OnChunk } from './import-copy.js';
import { readJsonArray } from './json-array-stream.js';
import { jsonRowTaker, type JsonRowCounts } from './json-rows.js';
import { decodeRecords, SampleStage } from './sample-stage.js';
import type { SigenJsonMessage } from './sigen-json-worker.js';
import { SAMPLE_FIELDS } from './sample.js';

/**
 * JSON history files into the history: parsed a window of entries at a time and checked row by
 * row (json-rows.ts; SQLite's json_each measured 3–8x slower on the same batches), their rows
 * inserted in the file's order with multi-row bound inserts (copyRows). Our own legacy file goes
 * to a stage on disk first (sample-stage.ts), and only a file read to its end is inserted: a
 * malformed legacy file is never half-imported. sigen-home-bridge's history.json, which is imported
 * as far as it can be read anyway (a damaged one is salvaged), is read on a thread of its own while
 * its first rows are already inserted (sigen-json-worker.ts).
 */

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
    async load(file: string, cutoff: number): Promise<JsonRowCounts> {
      const counts: JsonRowCounts = { rows: 0, withPower: 0, inRetention: 0, unreadable: 0, bytes: 0 };
      const take = jsonRowTaker('legacy-json', cutoff, stage, counts);
      for (const batch of readJsonArray(file)) take(batch);
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
