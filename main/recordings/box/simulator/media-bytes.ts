import crypto from 'node:crypto';

/**
 * Deterministic media bytes: each item has a seeded pseudo-random pattern whose length is not a
 * power of two, repeated; byte `o` of an item is `pattern[o % PATTERN_LENGTH]`. Multi-GB items cost
 * no disk, any range can be served, and an off-by-N resume shows up as a hash mismatch.
 */
export const PATTERN_LENGTH = 1024 * 1024 + 7;

const cache = new Map<string, Buffer>();

function seedOf(key: string): number {
  const h = crypto.createHash('sha256').update(key).digest();
  return h.readUInt32LE(0) || 0x9e3779b9;
}

export function patternFor(key: string): Buffer {
  let p = cache.get(key);
  if (p) return p;
  p = Buffer.allocUnsafe(PATTERN_LENGTH);
  let x = seedOf(key);
  let i = 0;
  for (; i + 4 <= PATTERN_LENGTH; i += 4) {
    // xorshift32
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    p.writeUInt32LE(x, i);
  }
  for (; i < PATTERN_LENGTH; i++) p[i] = (x >>> ((i % 4) * 8)) & 0xff;
  if (cache.size > 64) cache.delete(cache.keys().next().value!);
  cache.set(key, p);
  return p;
}

/** Yields the bytes [start, end) of an item as views on the pattern (no copies), `maxChunk` at most. */
export function* mediaChunks(key: string, start: number, end: number, maxChunk = 256 * 1024): Generator<Buffer> {
  const p = patternFor(key);
  let pos = start;
  while (pos < end) {
    const off = pos % PATTERN_LENGTH;
    const n = Math.min(maxChunk, PATTERN_LENGTH - off, end - pos);
    yield p.subarray(off, off + n);
    pos += n;
  }
}

/** SHA-256 of the bytes [0, length) of an item: what a complete download must hash to. */
export function mediaHash(key: string, length: number): string {
  const h = crypto.createHash('sha256');
  for (const c of mediaChunks(key, 0, length, 4 * 1024 * 1024)) h.update(c);
  return h.digest('hex');
}
