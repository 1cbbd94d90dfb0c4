import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RowSink } from './json-rows.js';
import { SAMPLE_FIELDS } from './sample.js';

/**
 * Rows as fixed-size records, `[t, ...SAMPLE_FIELDS]` as doubles (NaN for null: a checked value
 * is always finite): how the rows of a JSON file travel between reading it and inserting them,
 * through a temporary file (SampleStage) or in chunks from another thread (sigen-json-worker.ts),
 * with no object per row.
 */

/** Doubles per record. */
export const RECORD_WIDTH = 1 + SAMPLE_FIELDS.length;
const RECORD_BYTES = RECORD_WIDTH * 8;

/** Writes record `k` of `buf`: `t`, then `values[i]` for each field (null or a finite number). */
export function encodeRecord(buf: Float64Array, k: number, t: number, values: ArrayLike<number | null>): void {
  const o = k * RECORD_WIDTH;
  buf[o] = t;
  for (let i = 0; i < SAMPLE_FIELDS.length; i++) {
    const v = values[i];
    buf[o + 1 + i] = v === null || v === undefined ? NaN : v;
  }
}

/** Records 0 .. count - 1 of `buf`, appended to `rows` as `[t, ...SAMPLE_FIELDS]` (null where NaN). */
export function decodeRecords(buf: Float64Array, count: number, rows: unknown[][]): void {
  for (let r = 0; r < count; r++) {
    const row: unknown[] = new Array(RECORD_WIDTH);
    for (let i = 0; i < RECORD_WIDTH; i++) {
      const v = buf[r * RECORD_WIDTH + i]!;
      row[i] = v === v ? v : null;
    }
    rows.push(row);
  }
}

/** Records per write and per read. */
const BUFFER_RECORDS = 8192;

/**
 * Appends records to the file open as `fd` from its start, a buffer at a time: the writing half of
 * SampleStage, also used by the legacy file's second reader (legacy-json-worker.ts), which writes
 * into a stage the import worker opened and owns.
 */
export class StageWriter implements RowSink {
  /** Records on their way to the file (and, in SampleStage, on their way back: it reads once all are written). */
  protected readonly buf = new Float64Array(BUFFER_RECORDS * RECORD_WIDTH);
  private buffered = 0;
  /** Records written. */
  count = 0;
  /** Per field (SAMPLE_FIELDS order): whether any record holds a value in it. */
  present: boolean[] = SAMPLE_FIELDS.map(() => false);

  constructor(readonly fd: number) {}

  push(t: number, values: ArrayLike<number | null>): void {
    encodeRecord(this.buf, this.buffered, t, values);
    for (let i = 0; i < SAMPLE_FIELDS.length; i++) if (values[i] !== null && values[i] !== undefined) this.present[i] = true;
    this.count++;
    if (++this.buffered === BUFFER_RECORDS) this.flush();
  }

  /** Writes out what is buffered (call once the last record is pushed, before reading). */
  flush(): void {
    if (!this.buffered) return;
    const bytes = Buffer.from(this.buf.buffer, 0, this.buffered * RECORD_BYTES);
    for (let done = 0; done < bytes.length; ) done += fs.writeSync(this.fd, bytes, done, bytes.length - done, (this.count - this.buffered) * RECORD_BYTES + done);
    this.buffered = 0;
  }
}

/**
 * The rows of a file kept on disk between reading it whole and inserting it: appended in the file's
 * order and read back in it. So a legacy JSON file is parsed once, nothing reaches the history
 * before all of it has been read and checked, and memory stays one buffer. (A TEMP table of
 * SQLite did the same at three times the CPU: one bound insert per row into it, then reading it back.)
 */
export class SampleStage extends StageWriter {
  private readonly dir: string;
  private closed = false;

  constructor() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-stage-'));
    super(fs.openSync(path.join(dir, 'rows'), 'w+'));
    this.dir = dir;
    // Unlinked at once where the system allows it: nothing is left behind if the import is
    // stopped mid-file (its worker terminated) or the process dies. (Windows keeps the name until
    // the file is closed: close() removes it there.)
    try {
      fs.unlinkSync(path.join(this.dir, 'rows'));
      fs.rmdirSync(this.dir);
    } catch {
      // removed by close()
    }
  }

  /** Takes over what another thread wrote into this stage's file through a StageWriter of its own. */
  adopt(count: number, present: boolean[]): void {
    this.count = count;
    this.present = present;
  }

  /** Up to `limit` records from record `from` on, as rows `[t, ...SAMPLE_FIELDS]` (null where NaN). */
  read(from: number, limit: number): unknown[][] {
    const n = Math.max(0, Math.min(limit, this.count - from));
    const rows: unknown[][] = [];
    for (let k = 0; k < n; ) {
      const part = Math.min(BUFFER_RECORDS, n - k);
      const bytes = Buffer.from(this.buf.buffer, 0, part * RECORD_BYTES);
      for (let done = 0; done < bytes.length; ) {
        const got = fs.readSync(this.fd, bytes, done, bytes.length - done, (from + k) * RECORD_BYTES + done);
        if (got === 0) throw new Error('the import stage file ended early');
        done += got;
      }
      decodeRecords(this.buf, part, rows);
      k += part;
    }
    return rows;
  }

  /** Removes the file (once; later calls do nothing). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
