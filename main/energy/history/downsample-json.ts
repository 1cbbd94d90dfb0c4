import type { BucketColumns } from './bucket-columns.js';
import * as decimal from './decimal.js';
import { DOWNSAMPLED_COLUMNS } from './downsample.js';
import { isPowerField, round4, SAMPLE_FIELDS } from './sample.js';

// Module constants of their own: read through an import binding they cost the hot loop more under
// tsx (the bench and tests run the sources).
const { ONES, TENS, writeWhole } = decimal;
const F = SAMPLE_FIELDS.length;
const POWER = SAMPLE_FIELDS.map((f) => isPowerField(f));
/** `"key":` of every column after `t`, preceded by `,`; indexes follow DOWNSAMPLED_COLUMNS. */
const KEYS = DOWNSAMPLED_COLUMNS.map((k) => Uint8Array.from(`,"${k}":`, (c) => c.charCodeAt(0)));
const KEY_T = Uint8Array.from('{"t":', (c) => c.charCodeAt(0));
/** The most bytes one row can take: its keys, 28 numbers of at most 25 characters, braces and comma. */
const ROW_MAX = KEYS.reduce((a, k) => a + k.length, KEY_T.length) + DOWNSAMPLED_COLUMNS.length * 25 + 4;
/** Integers below this (15 digits) turned into 4-decimal numbers print as those digits exactly. */
const EXACT = 1e15;

/**
 * `JSON.stringify(rows)` of the finished buckets (finishBucket) as UTF-8 bytes, byte for byte, written straight from
 * the partial buckets: no row objects, no string to encode, and numbers written digit by digit.
 *
 * Why the digits are the same: a mean is `round4(x)` = `k / 1e4` with `k = Math.round(x * 1e4)`,
 * and a min or max `v` is tested for `Math.round(v * 1e4) / 1e4 === v`. For such a `k` below 1e15
 * (at most 15 significant digits) the decimal `k / 1e4` is the only decimal of 15 digits or fewer
 * that reads back as that double (IEEE doubles keep 15 significant digits), so it is the shortest
 * round-trip form that JavaScript prints, in plain notation (1e-4 <= |v| < 1e11). Anything else
 * (more decimals, huge values) goes through `String(v)`; NaN and the infinities are null, as in JSON
 * (a NaN min or max is a field without values: null too). Rows from index `from` on, oldest first
 * or (`desc`) newest first; written into `allocate(bytes)`, a buffer of at least that many bytes
 * (the reader worker passes one given back by the HTTP thread).
 */
export function downsampledJsonBytes(buckets: BucketColumns, from = 0, desc = false, allocate: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes)): Uint8Array {
  const count = Math.max(0, buckets.length - from);
  const w = new ByteWriter(allocate(64 + count * 640));
  const { t, n, sum, cnt, min, max } = buckets;
  w.byte(0x5b); // [
  for (let r = 0; r < count; r++) {
    const j = desc ? buckets.length - 1 - r : from + r;
    w.ensure(ROW_MAX);
    if (r) w.byte(0x2c); // ,
    w.bytes(KEY_T);
    w.integer(t[j]!);
    let key = 1;
    const k = j * F;
    for (let i = 0; i < F; i++) {
      w.bytes(KEYS[key++]!);
      const c = cnt[k + i]!;
      if (c) w.fixed4(sum[k + i]! / c);
      else w.null();
      if (POWER[i]) {
        w.bytes(KEYS[key++]!);
        w.value(min[k + i]!);
        w.bytes(KEYS[key++]!);
        w.value(max[k + i]!);
      }
    }
    w.bytes(KEYS[key]!);
    w.integer(n[j]!);
    w.byte(0x7d); // }
  }
  w.ensure(1);
  w.byte(0x5d); // ]
  return w.done();
}

class ByteWriter {
  private buf: Uint8Array;
  private pos = 0;

  /** Writes into `buf` (its old bytes are written over), growing past it when needed. */
  constructor(buf: Uint8Array) {
    this.buf = buf;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    bigger.set(this.buf.subarray(0, this.pos));
    this.buf = bigger;
  }

  /**
   * The bytes written: a view at the start of an ArrayBuffer no one else holds (a worker transfers
   * it as it is; copying 10 MB into an exact-size buffer would cost more than the slack).
   */
  done(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  byte(c: number): void {
    this.buf[this.pos++] = c;
  }

  bytes(a: Uint8Array): void {
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < a.length; i++) buf[p++] = a[i]!;
    this.pos = p;
  }

  null(): void {
    this.ascii('null');
  }

  /** A number as JSON.stringify writes it (NaN as null). */
  value(v: number): void {
    const k = Math.round(v * 1e4);
    if (k > -EXACT && k < EXACT && k / 1e4 === v) this.tenThousandths(k);
    else this.text(v);
  }

  /** `round4(x)` as JSON.stringify writes it. */
  fixed4(x: number): void {
    const k = Math.round(x * 1e4);
    if (k > -EXACT && k < EXACT) this.tenThousandths(k);
    else this.text(round4(x)!);
  }

  integer(v: number): void {
    if (!Number.isSafeInteger(v) || v <= -EXACT || v >= EXACT) return this.text(v);
    if (v < 0) {
      this.byte(0x2d);
      v = -v;
    }
    this.pos = writeWhole(this.buf, this.pos, v);
  }

  private text(v: number): void {
    this.ascii(Number.isFinite(v) ? String(v) : 'null');
  }

  private ascii(s: string): void {
    this.ensure(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.pos++] = s.charCodeAt(i);
  }

  /** `k / 10_000` for an integer |k| < 1e15: digits, then the decimals without trailing zeros. */
  private tenThousandths(k: number): void {
    const b = this.buf;
    let p = this.pos;
    if (k < 0) {
      b[p++] = 0x2d; // -
      k = -k;
    }
    // A 32-bit division where k fits (means and readings up to ±214,748.3647).
    const whole = k < 2147483648 ? ((k / 10_000) | 0) : Math.floor(k / 10_000);
    const frac = k - whole * 10_000;
    p = writeWhole(b, p, whole);
    if (frac !== 0) {
      // Four decimals, the trailing zeros left out: .0005, .1, .12, .123, .1234
      b[p++] = 0x2e; // .
      const hi = (frac / 100) | 0;
      const lo = frac - hi * 100;
      b[p++] = TENS[hi]!;
      if (lo !== 0 || ONES[hi] !== 0x30) b[p++] = ONES[hi]!;
      if (lo !== 0) {
        b[p++] = TENS[lo]!;
        if (lo % 10 !== 0) b[p++] = ONES[lo]!;
      }
    }
    this.pos = p;
  }
}
