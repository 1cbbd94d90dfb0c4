/**
 * Non-negative whole numbers written as ASCII decimal digits straight into a byte buffer, for the
 * JSON and CSV writers (export-rows.ts, downsample-json.ts): two digits per 32-bit division, the
 * digits from a table. Each function returns the position after what it wrote.
 */

export const ZERO = 48;

/** The tens and the ones digit of 0..99, as ASCII. */
export const TENS = Uint8Array.from({ length: 100 }, (_, i) => ZERO + ((i / 10) | 0));
export const ONES = Uint8Array.from({ length: 100 }, (_, i) => ZERO + (i % 10));

/** A whole number 0 <= n < 1e15 (epoch milliseconds, counts, readings). */
export function writeWhole(b: Uint8Array, p: number, n: number): number {
  if (n < 2147483648) return writeUint(b, p, n);
  // Two halves that each fit 32 bits.
  const hi = Math.floor(n / 1e8);
  return writePadded(b, writeUint(b, p, hi), n - hi * 1e8, 8);
}

/** A whole number 0 <= n < 2^31 (at most 10 digits). */
export function writeUint(b: Uint8Array, p: number, n: number): number {
  const len = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : n < 100_000 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : 10;
  return writePadded(b, p, n, len);
}

/** A whole number 0 <= n < 2^31 as exactly `len` digits (leading zeros), written from the end. */
export function writePadded(b: Uint8Array, p: number, n: number, len: number): number {
  const end = p + len;
  let i = end;
  while (i - p >= 2) {
    const q = (n / 100) | 0;
    const r = n - q * 100;
    b[--i] = ONES[r]!;
    b[--i] = TENS[r]!;
    n = q;
  }
  if (i > p) b[p] = ZERO + n;
  return end;
}
