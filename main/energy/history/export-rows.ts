import * as decimal from './decimal.js';
import type { ExportFormat } from './export.js';
import { SAMPLE_FIELDS } from './sample.js';

/**
 * Writes sample rows (`[t, ...SAMPLE_FIELDS]`, as the durable store's raw statements return them)
 * as CSV lines or JSON objects straight into byte buffers: no string per row or per value, so the
 * cost per row is a few dozen byte stores. Numbers read exactly as `String(v)` writes them (the
 * shortest text that parses back to the same double); most readings have at most two decimals and
 * are written from integers, anything else through `String`. A full buffer is handed to `emit`
 * (which may keep it) and the next rows go into another from `allocate`.
 */
export class ExportRowWriter {
  /**
   * The buffer being written, taken only when a row comes (a writer that ends, or a flush at the
   * end of a page, leaves no fresh buffer behind unused).
   */
  private buf: Buffer = NO_BUFFER;
  private dv: DataView = new DataView(NO_BUFFER.buffer, 0, 0);
  private pos = 0;
  /** A row starting after this position may not fit: the next one goes into a new buffer. */
  private last = -1;
  /** JSON: a ',' goes before the next object (false only before the export's very first row). */
  private comma: boolean;
  private minute = NaN;
  private prefix = new Uint8Array(0);

  constructor(
    private readonly format: ExportFormat,
    private readonly emit: (chunk: Buffer) => void,
    opts: { firstRow?: boolean; chunkBytes?: number; allocate?: (bytes: number) => Buffer } = {},
  ) {
    this.chunkBytes = Math.max(MAX_ROW_BYTES * 2, opts.chunkBytes ?? DEFAULT_CHUNK_BYTES);
    this.allocate = opts.allocate ?? Buffer.allocUnsafeSlow;
    this.comma = !(opts.firstRow ?? true);
  }

  private readonly chunkBytes: number;
  /** A buffer of at least the given size (a fresh one, or a recycled one the consumer gave back). */
  private readonly allocate: (bytes: number) => Buffer;

  /** Appends one row (`[t, ...SAMPLE_FIELDS]`; null or undefined is a missing reading). */
  row(values: ArrayLike<unknown>): void {
    if (this.pos > this.last) this.nextBuffer();
    if (this.format === 'csv') this.csvRow(values);
    else this.jsonRow(values);
  }

  /** Rows written so far that were not handed over yet (a buffer of its own), or nothing. */
  flush(): void {
    if (this.pos === 0) return;
    const full = this.buf.subarray(0, this.pos);
    this.buf = NO_BUFFER;
    this.pos = 0;
    this.last = -1;
    this.emit(full);
  }

  private nextBuffer(): void {
    this.flush();
    this.buf = this.allocate(this.chunkBytes);
    this.dv = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.last = this.chunkBytes - MAX_ROW_BYTES;
  }

  private csvRow(values: ArrayLike<unknown>): void {
    const b = this.buf;
    const t = values[0] as number;
    let p = this.isoTime(b, this.pos, t);
    b[p++] = COMMA;
    p = writeNumber(b, p, t);
    for (let i = 1; i <= FIELD_COUNT; i++) {
      b[p++] = COMMA;
      const v = values[i];
      if (typeof v === 'number' && Number.isFinite(v)) p = writeNumber(b, p, v);
    }
    b[p++] = NEWLINE;
    this.pos = p;
  }

  private jsonRow(values: ArrayLike<unknown>): void {
    const b = this.buf;
    const dv = this.dv;
    let p = this.pos;
    if (this.comma) b[p++] = COMMA;
    this.comma = true;
    for (let i = 0; i <= FIELD_COUNT; i++) {
      // `{"t":`, then `,"solar":` and so on, four bytes a store. The last store may run up to three
      // bytes past the key: the value written next overwrites them (MAX_ROW_BYTES leaves room).
      const end = KEY_WORD_START[i + 1]!;
      for (let w = KEY_WORD_START[i]!, q = p; w < end; w++, q += 4) dv.setInt32(q, KEY_WORDS[w]!, true);
      p += KEY_LENGTH[i]!;
      const v = values[i];
      if (typeof v === 'number' && Number.isFinite(v)) p = writeNumber(b, p, v);
      else {
        dv.setInt32(p, NULL_WORD, true);
        p += 4;
      }
    }
    b[p++] = CLOSE_BRACE;
    this.pos = p;
  }

  /**
   * `t` as `new Date(t).toISOString()` writes it. Samples are time-ordered, so the text up to the
   * minute is made once per minute; seconds and milliseconds are written from integers.
   */
  private isoTime(b: Buffer, p: number, t: number): number {
    const m = Math.floor(t / 60_000);
    if (m !== this.minute) {
      const d = new Date(m * 60_000);
      // Outside Date's range there is no ISO text: the cell stays empty.
      if (Number.isNaN(d.getTime())) return p;
      const iso = d.toISOString();
      this.minute = m;
      this.prefix = Buffer.from(iso.slice(0, iso.length - 7), 'latin1'); // up to 'HH:MM:'
    }
    const prefix = this.prefix;
    for (let i = 0; i < prefix.length; i++) b[p++] = prefix[i]!;
    const ms = t - m * 60_000;
    const sec = (ms / 1000) | 0;
    const milli = ms - sec * 1000;
    const tens = (sec / 10) | 0;
    b[p++] = ZERO + tens;
    b[p++] = ZERO + sec - tens * 10;
    b[p++] = DOT;
    const hundreds = (milli / 100) | 0;
    const rest = milli - hundreds * 100;
    const tensMs = (rest / 10) | 0;
    b[p++] = ZERO + hundreds;
    b[p++] = ZERO + tensMs;
    b[p++] = ZERO + rest - tensMs * 10;
    b[p++] = 90; // 'Z'
    return p;
  }
}

const NO_BUFFER = Buffer.from(new ArrayBuffer(0));

/** About 1 MiB per chunk: few messages and socket writes, little held at once. */
export const DEFAULT_CHUNK_BYTES = 1 << 20;

// Module constants of their own: read through an import binding, the digit table and the
// functions cost this hot path ~6% more under tsx (the bench and tests run the sources).
const { ONES, TENS, writeUint, writeWhole, ZERO } = decimal;
const FIELD_COUNT = SAMPLE_FIELDS.length;
const COMMA = 44;
const DOT = 46;
const MINUS = 45;
const NEWLINE = 10;
const CLOSE_BRACE = 125;

const keyText = ['t', ...SAMPLE_FIELDS].map((k, i) => (i === 0 ? '{"' : ',"') + k + '":');
/** Text as little-endian 32-bit words (what `DataView.setInt32(…, true)` stores), the last one zero-padded. */
const words = (text: string): number[] => {
  const bytes = Buffer.alloc(Math.ceil(text.length / 4) * 4);
  bytes.write(text, 'latin1');
  return Array.from({ length: bytes.length / 4 }, (_, w) => bytes.readInt32LE(w * 4));
};
/** Every JSON key's words, one key after the other; where each key's words start; each key's length. */
const KEY_WORDS = Int32Array.from(keyText.flatMap(words));
const KEY_WORD_START = Int32Array.from(keyText.reduce<number[]>((starts, k) => [...starts, starts.at(-1)! + words(k).length], [0]));
const KEY_LENGTH = Int32Array.from(keyText, (k) => k.length);
const NULL_WORD = words('null')[0]!;
/**
 * Upper bound of the bytes one row writes to: the keys in whole words (or the ISO time), plus each
 * number at its longest (`String` of a double is at most 25 characters, e.g.
 * `-2.2250738585072014e-308`) and a separator.
 */
const MAX_ROW_BYTES = KEY_WORDS.length * 4 + 32 + (FIELD_COUNT + 1) * 26;

/**
 * `x` (finite) as `String(x)` writes it, into `b` at `p`; returns the position after it. Whole
 * numbers and numbers with at most two decimals whose two-decimal text reads back as the same
 * double are written from integers (that text is then also the shortest one, which is what
 * `String` gives); anything else goes through `String` itself. Kept small, with the common cases
 * in 32-bit integer arithmetic, so the optimising compiler inlines it into the row writers.
 */
export function writeNumber(b: Uint8Array, p: number, x: number): number {
  if ((x | 0) === x) return writeInt(b, p, x | 0);
  const k = Math.round(x * 100);
  if ((k | 0) === k && k / 100 === x) return writeCents(b, p, k | 0);
  return writeOtherNumber(b, p, x);
}

/** A 32-bit integer in decimal. */
function writeInt(b: Uint8Array, p: number, n: number): number {
  if (n < 0) {
    b[p++] = MINUS;
    n = -n;
  }
  return writeUint(b, p, n);
}

/** `k / 100` for a 32-bit `k` that is not a multiple of 100: `whole.f` or `whole.ff`. */
function writeCents(b: Uint8Array, p: number, k: number): number {
  if (k < 0) {
    b[p++] = MINUS;
    k = -k;
  }
  const whole = (k / 100) | 0;
  const cents = k - whole * 100;
  p = writeUint(b, p, whole);
  b[p++] = DOT;
  b[p++] = TENS[cents]!;
  if (cents % 10 !== 0) b[p++] = ONES[cents]!;
  return p;
}

/**
 * The rarer numbers: two decimals beyond 32-bit hundredths, whole numbers beyond 32 bits (epoch
 * milliseconds), and anything else through `String`.
 */
function writeOtherNumber(b: Uint8Array, p: number, x: number): number {
  if (Number.isSafeInteger(x) && x > -1e15 && x < 1e15) {
    if (x >= 0) return writeWhole(b, p, x);
    b[p++] = MINUS;
    return writeWhole(b, p, -x);
  }
  if (x > -2147483647 && x < 2147483647) {
    const k = Math.round(x * 100);
    if (k / 100 === x) {
      let a = k;
      if (a < 0) {
        b[p++] = MINUS;
        a = -a;
      }
      // a / 100 = |x| < 2^31: the whole part is a 32-bit integer; a itself is not.
      const whole = Math.floor(a / 100);
      const cents = a - whole * 100;
      p = writeUint(b, p, whole);
      b[p++] = DOT;
      b[p++] = TENS[cents]!;
      if (cents % 10 !== 0) b[p++] = ONES[cents]!;
      return p;
    }
  }
  return writeAscii(b, p, String(x));
}

function writeAscii(b: Uint8Array, p: number, s: string): number {
  for (let i = 0; i < s.length; i++) b[p++] = s.charCodeAt(i);
  return p;
}
