import { PAGE_MS } from './block-pages.js';
import { SAMPLE_FIELDS } from './sample.js';

/**
 * Sealed 10-minute pages of raw samples, one blob each (`sample_pages`, see durable-schema.ts): what
 * the full exports read. Handing a row over from SQLite costs a Node-API call per value (about
 * 0.75 µs a row of 11 values); a page of 600 rows comes over as one blob and is read here with
 * plain loads. The `samples` table stays the record: a page's blob is written from its rows once
 * the page is sealed (in the background, sample-page-fill.ts), dropped whenever a writer rebuilds
 * the page's rollups, and written again; a page without a blob is read from `samples`.
 *
 * Layout (little-endian): version, field count, two bytes unused, the row count (u32), one kind
 * byte per field (16 reserved); then each row's `t` as milliseconds into the page (i32); then per
 * field, by its kind: nothing (no value in the page), hundredths (i32, `NULL_HUNDREDTHS` for a
 * missing value; every value of the field is a whole number of hundredths that reads back as
 * the same double) or doubles (NaN for a missing value: SQLite stores no NaN). Each array starts
 * on 8 bytes.
 */

const F = SAMPLE_FIELDS.length;
const VERSION = 1;
const KINDS_AT = 8;
const HEADER_BYTES = KINDS_AT + 16;
const NONE = 0;
const HUNDREDTHS = 1;
const DOUBLES = 2;
const NULL_HUNDREDTHS = -0x80000000;
/**
 * A page holding more rows than this (over 100 samples a second) gets no blob and is always read
 * from `samples`: a blob is built whole in memory, and polls come at most once a second.
 */
export const MAX_PAGE_ROWS = 60_000;

const pad8 = (n: number): number => (n + 7) & ~7;
const columnBytes = (kind: number, n: number): number => (kind === HUNDREDTHS ? pad8(4 * n) : kind === DOUBLES ? 8 * n : 0);

/** How a field's values can be stored: hundredths when every one of them is a whole 32-bit number of hundredths. */
function kindOf(rows: readonly unknown[][], column: number): number {
  let kind = NONE;
  for (const row of rows) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    const x = v as number;
    const k = Math.round(x * 100);
    if (!(k / 100 === x && k > NULL_HUNDREDTHS && k <= 0x7fffffff)) return DOUBLES;
    kind = HUNDREDTHS;
  }
  return kind;
}

/**
 * The blob of page `p` from its rows (`[t, ...SAMPLE_FIELDS]`, in `t` order, all inside the page,
 * at most MAX_PAGE_ROWS of them).
 */
export function encodeSamplePage(p: number, rows: readonly unknown[][]): Buffer {
  const n = rows.length;
  if (n > MAX_PAGE_ROWS) throw new Error(`a sample page holds at most ${MAX_PAGE_ROWS} rows, not ${n}`);
  const kinds = Array.from({ length: F }, (_, i) => kindOf(rows, i + 1));
  const buf = Buffer.alloc(HEADER_BYTES + pad8(4 * n) + kinds.reduce((sum, k) => sum + columnBytes(k, n), 0));
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  buf[0] = VERSION;
  buf[1] = F;
  dv.setUint32(4, n, true);
  kinds.forEach((k, i) => (buf[KINDS_AT + i] = k));
  const start = p * PAGE_MS;
  let o = HEADER_BYTES;
  for (let j = 0; j < n; j++) {
    const ms = (rows[j]![0] as number) - start;
    if (!(ms >= 0 && ms < PAGE_MS)) throw new Error(`sample at ${rows[j]![0]} is not in page ${p}`);
    dv.setInt32(o + 4 * j, ms, true);
  }
  o += pad8(4 * n);
  for (let i = 0; i < F; i++) {
    const kind = kinds[i]!;
    for (let j = 0; j < n && kind !== NONE; j++) {
      const v = rows[j]![i + 1] as number | null | undefined;
      const missing = v === null || v === undefined;
      if (kind === HUNDREDTHS) dv.setInt32(o + 4 * j, missing ? NULL_HUNDREDTHS : Math.round(v * 100), true);
      else dv.setFloat64(o + 8 * j, missing ? NaN : v, true);
    }
    o += columnBytes(kind, n);
  }
  return buf;
}

/** Doubles per decoded row: `t`, then the fields. */
export const ROW_WIDTH = 1 + F;

/** One page's blob, decoded a run of rows at a time. */
export class SamplePage {
  readonly rows: number;
  private readonly start: number;
  /** Each row's milliseconds into the page. */
  private readonly ms: Int32Array;
  /** Per field: its hundredths, or null. */
  private readonly hundredths: Array<Int32Array | null> = [];
  /** Per field: its doubles, or null. */
  private readonly doubles: Array<Float64Array | null> = [];

  /** The page `p` from its blob, or null when the blob is not in this layout (the page is then read from `samples`). */
  static open(p: number, blob: Uint8Array): SamplePage | null {
    if (blob.byteLength < HEADER_BYTES || blob[0] !== VERSION || blob[1] !== F) return null;
    const n = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(4, true);
    if (n > MAX_PAGE_ROWS) return null;
    let bytes = HEADER_BYTES + pad8(4 * n);
    for (let i = 0; i < F; i++) {
      const kind = blob[KINDS_AT + i]!;
      if (kind > DOUBLES) return null;
      bytes += columnBytes(kind, n);
    }
    if (bytes !== blob.byteLength) return null;
    // Typed views need the blob on 8 bytes (a copy when SQLite's buffer is not).
    return new SamplePage(p, n, blob.byteOffset % 8 === 0 ? blob : new Uint8Array(blob));
  }

  private constructor(p: number, n: number, blob: Uint8Array) {
    this.rows = n;
    this.start = p * PAGE_MS;
    const { buffer, byteOffset } = blob;
    this.ms = new Int32Array(buffer, byteOffset + HEADER_BYTES, n);
    let o = byteOffset + HEADER_BYTES + pad8(4 * n);
    for (let i = 0; i < F; i++) {
      const kind = blob[KINDS_AT + i];
      this.hundredths.push(kind === HUNDREDTHS ? new Int32Array(buffer, o, n) : null);
      this.doubles.push(kind === DOUBLES ? new Float64Array(buffer, o, n) : null);
      o += columnBytes(kind!, n);
    }
  }

  /** Row `j`'s time (epoch ms). */
  t(j: number): number {
    return this.start + this.ms[j]!;
  }

  /** The first row with a time after `t` (rows when none). */
  firstAfter(t: number): number {
    let lo = 0;
    let hi = this.rows;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.t(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Rows j0..j1-1 into `out`, ROW_WIDTH doubles each (`[t, ...SAMPLE_FIELDS]`), NaN for a missing
   * value; a column at a time.
   */
  decode(out: Float64Array, j0: number, j1: number): void {
    const { ms, start } = this;
    for (let j = j0, o = 0; j < j1; j++, o += ROW_WIDTH) out[o] = start + ms[j]!;
    for (let i = 0; i < F; i++) {
      const h = this.hundredths[i];
      const d = this.doubles[i];
      if (h) {
        for (let j = j0, o = i + 1; j < j1; j++, o += ROW_WIDTH) {
          const k = h[j]!;
          out[o] = k === NULL_HUNDREDTHS ? NaN : k / 100;
        }
      } else if (d) for (let j = j0, o = i + 1; j < j1; j++, o += ROW_WIDTH) out[o] = d[j]!;
      else for (let j = j0, o = i + 1; j < j1; j++, o += ROW_WIDTH) out[o] = NaN;
    }
  }
}
