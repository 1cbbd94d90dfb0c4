import fs from 'node:fs';

/**
 * Reads a file holding one top-level JSON array a chunk at a time, without ever holding the whole
 * text. Memory is a chunk plus one element; an element larger than `maxElementBytes` is an error
 * (a hostile or broken file cannot make it buffer without end). A byte scanner finds where each
 * element starts and ends (brackets, braces and strings, nothing else), and the whole elements found
 * in a chunk are handed to JSON.parse in one call; errors say which element is not JSON, too large,
 * or where the array is broken.
 */
export interface JsonArrayOptions {
  /** Bytes read per chunk (default 1 MiB). */
  chunkBytes?: number;
  /** Largest element accepted, in bytes (default 64 KiB). */
  maxElementBytes?: number;
}

/** One chunk's elements: `items[k]` is element `first + k`; `bad` lists elements that are not valid JSON. */
export interface JsonArrayBatch {
  first: number;
  items: unknown[];
  /** Bytes of the file read through this batch's last element (progress). */
  end: number;
  /** Indexes (file-wide) of elements that failed to parse; their slot in `items` holds `undefined`. */
  bad: Array<{ index: number; message: string }>;
}

/** The file is not one JSON array (its structure, not one element, is broken); `entries` whole ones came before. */
export class JsonArrayError extends Error {
  constructor(
    message: string,
    readonly entries: number,
  ) {
    super(message);
  }
}

const WS = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WS[c] = 1;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const BOM = [0xef, 0xbb, 0xbf];

/** Text of a byte for an error message. */
const shown = (c: number) => (c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16)}`);

/**
 * The elements of the top-level JSON array in `file`, in order, a chunk's worth per batch. Throws
 * JsonArrayError when the file is not an array, is cut short, or has text between elements that
 * is not a comma; elements that are whole but not valid JSON are listed in the batch's `bad`.
 */
export function* readJsonArray(file: string, opts: JsonArrayOptions = {}): Generator<JsonArrayBatch> {
  const chunkBytes = opts.chunkBytes ?? 1 << 20;
  const maxElement = opts.maxElementBytes ?? 64 * 1024;
  const fd = fs.openSync(file, 'r');
  try {
    // before '[' | expecting an element (or ']' if none yet) | inside one | after one | after ']'
    let state: 'start' | 'value' | 'in' | 'after' | 'end' = 'start';
    let empty = true; // no element yet (']' allowed right after '[')
    let index = 0; // elements completed so far
    let depth = 0;
    let inString = false;
    let escaped = false;
    let scalar = false; // the element is a number, true, false or null (ends at a delimiter)
    let carry: Buffer = Buffer.alloc(0); // the element in progress, from an earlier chunk
    let offset = 0; // file offset of buf[0], for messages
    const chunk = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunkBytes, offset + carry.length);
      const eof = n === 0;
      const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      // The carried bytes were scanned already (depth and string state hold them): go on after them.
      let i = carry.length;
      // Whole elements of this buffer: [starts[k], ends[k]).
      const starts: number[] = [];
      const ends: number[] = [];
      let start = state === 'in' ? 0 : -1;
      const close = (end: number) => {
        if (end - start > maxElement) throw new JsonArrayError(`entry ${index} is larger than ${maxElement} bytes`, index);
        starts.push(start);
        ends.push(end);
        start = -1;
        index++;
        return 'after' as const;
      };
      const fail = (what: string): never => {
        throw new JsonArrayError(`not valid JSON (${what} at byte ${offset + i})`, index);
      };
      for (; i < buf.length; i++) {
        const c = buf[i]!;
        if (state === 'in') {
          if (inString) {
            if (escaped) escaped = false;
            else if (c === BACKSLASH) escaped = true;
            else if (c === QUOTE) {
              inString = false;
              if (depth === 0) state = close(i + 1);
            }
          } else if (scalar) {
            if (WS[c] || c === COMMA || c === CLOSE_BRACKET) {
              scalar = false;
              state = close(i);
              i--; // the delimiter is read again in state 'after'
            }
          } else if (c === QUOTE) inString = true;
          else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
          else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
            if (--depth === 0) state = close(i + 1);
          }
          continue;
        }
        if (WS[c]) continue;
        if (state === 'start') {
          if (offset + i < 3 && c === BOM[offset + i]) continue; // a UTF-8 byte order mark
          if (c !== OPEN_BRACKET) throw new JsonArrayError('expected a JSON array', 0);
          state = 'value';
        } else if (state === 'value') {
          if (c === CLOSE_BRACKET && empty) state = 'end';
          else if (c === CLOSE_BRACKET || c === COMMA || c === CLOSE_BRACE) fail(`unexpected ${shown(c)}`);
          else {
            state = 'in';
            empty = false;
            start = i;
            if (c === QUOTE) inString = true;
            else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth = 1;
            else scalar = true;
          }
        } else if (state === 'after') {
          if (c === COMMA) state = 'value';
          else if (c === CLOSE_BRACKET) state = 'end';
          else fail(`unexpected ${shown(c)} after entry ${index - 1}`);
        } else fail(`unexpected ${shown(c)} after the array`);
      }
      if (eof && state === 'in' && scalar) {
        scalar = false;
        state = close(buf.length);
      }
      if (starts.length) yield { ...parseBatch(buf, starts, ends, index - starts.length), end: offset + ends[ends.length - 1]! };
      if (state === 'in') {
        carry = Buffer.from(buf.subarray(start));
        if (carry.length > maxElement) throw new JsonArrayError(`entry ${index} is larger than ${maxElement} bytes`, index);
      } else carry = Buffer.alloc(0);
      offset += buf.length - carry.length;
      if (eof) {
        if (state === 'start') throw new JsonArrayError('expected a JSON array (the file is empty)', 0);
        if (state !== 'end') throw new JsonArrayError(state === 'in' ? `not valid JSON (the file ends inside entry ${index})` : 'not valid JSON (the file ends before the array closes)', index);
        return;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The elements [starts[k], ends[k]) of `buf` parsed in one JSON.parse; one by one only if that fails. */
function parseBatch(buf: Buffer, starts: number[], ends: number[], first: number): Omit<JsonArrayBatch, 'end'> {
  const from = starts[0]!;
  const to = ends[ends.length - 1]!;
  try {
    // Between two elements there is only a comma and whitespace: the span is a valid array body.
    const items = JSON.parse(`[${buf.toString('utf8', from, to)}]`) as unknown[];
    if (items.length === starts.length) return { first, items, bad: [] };
  } catch {
    // some element is not valid JSON: find which below
  }
  const items: unknown[] = [];
  const bad: JsonArrayBatch['bad'] = [];
  for (let k = 0; k < starts.length; k++) {
    try {
      items.push(JSON.parse(buf.toString('utf8', starts[k], ends[k])));
    } catch (err) {
      items.push(undefined);
      bad.push({ index: first + k, message: (err as Error).message });
    }
  }
  return { first, items, bad };
}
