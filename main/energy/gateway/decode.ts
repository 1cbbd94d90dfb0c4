import type { RegisterDef } from './registers.js';

/** Decodes one register's words (big-endian, high word first) into its scaled value. */
export function decodeRegister(def: RegisterDef, words: readonly number[]): number | string {
  if (def.type === 'ascii') return decodeAscii(words);
  const raw = decodeInteger(def.type, words);
  return def.divisor === 1 ? raw : raw / def.divisor;
}

export function decodeInteger(type: Exclude<RegisterDef['type'], 'ascii'>, words: readonly number[]): number {
  const w = (i: number) => (words[i] ?? 0) & 0xffff;
  switch (type) {
    case 'u16':
      return w(0);
    case 's16':
      return (w(0) << 16) >> 16;
    case 'u32':
      return w(0) * 0x10000 + w(1);
    case 's32':
      return ((w(0) << 16) | w(1)) | 0;
    case 'u64': {
      const big = (BigInt(w(0)) << 48n) | (BigInt(w(1)) << 32n) | (BigInt(w(2)) << 16n) | BigInt(w(3));
      return Number(big);
    }
  }
}

/** Two ASCII characters per word, NUL and space padding trimmed. */
export function decodeAscii(words: readonly number[]): string {
  const bytes: number[] = [];
  for (const word of words) bytes.push((word >> 8) & 0xff, word & 0xff);
  return String.fromCharCode(...bytes.filter((b) => b !== 0)).trim();
}

/** The inverse, used by the simulator and by tests. */
export function encodeRegister(def: RegisterDef, value: number | string): number[] {
  if (def.type === 'ascii') return encodeAscii(String(value), def.words);
  const raw = Math.round(Number(value) * def.divisor);
  switch (def.type) {
    case 'u16':
    case 's16':
      return [raw & 0xffff];
    case 'u32':
    case 's32': {
      const v = raw < 0 ? raw + 0x100000000 : raw;
      return [Math.floor(v / 0x10000) & 0xffff, v & 0xffff];
    }
    case 'u64': {
      const big = BigInt(raw);
      return [Number((big >> 48n) & 0xffffn), Number((big >> 32n) & 0xffffn), Number((big >> 16n) & 0xffffn), Number(big & 0xffffn)];
    }
  }
}

export function encodeAscii(text: string, words: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < words; i++) {
    const a = text.charCodeAt(2 * i) || 0;
    const b = text.charCodeAt(2 * i + 1) || 0;
    out.push(((a & 0xff) << 8) | (b & 0xff));
  }
  return out;
}
