import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonArrayError, readJsonArray, type JsonArrayOptions } from './json-array-stream.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'json-array-stream-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fileWith = (text: string | Buffer) => {
  const file = path.join(dir, `f${n++}.json`);
  fs.writeFileSync(file, text);
  return file;
};

/** Every element read, in order, with the indexes of the bad ones. */
function readAll(file: string, opts?: JsonArrayOptions): { items: unknown[]; bad: number[]; batches: number } {
  const items: unknown[] = [];
  const bad: number[] = [];
  let batches = 0;
  for (const b of readJsonArray(file, opts)) {
    expect(b.first).toBe(items.length);
    items.push(...b.items);
    bad.push(...b.bad.map((x) => x.index));
    batches++;
  }
  return { items, bad, batches };
}

const errorOf = (file: string, opts?: JsonArrayOptions): JsonArrayError => {
  try {
    readAll(file, opts);
  } catch (err) {
    if (err instanceof JsonArrayError) return err;
    throw err;
  }
  throw new Error('no error');
};

describe('streamed JSON array reader', () => {
  it('gives the same elements as JSON.parse, whatever the chunk boundaries cut through', () => {
    const value = [
      { t: 1, solar: -1.5e3, s: 'a "quoted" ] } [ { string\\', nested: [{ x: [1, 2, { y: null }] }] },
      [],
      {},
      'text with ] and }',
      12.5,
      -0,
      true,
      null,
      { unicode: 'Grüße ☀ 😀', esc: '\\"\n\t' },
    ];
    const spaced = JSON.stringify(value, null, 3).replace(/\n/g, '\r\n');
    for (const text of [JSON.stringify(value), spaced, `\uFEFF${JSON.stringify(value)}`]) {
      for (const chunkBytes of [1, 2, 3, 7, 64, 1 << 20]) {
        for (const opts of [{ chunkBytes }, { chunkBytes, maxElementBytes: 400 }]) {
          const { items, bad } = readAll(fileWith(text), opts);
          expect(bad).toEqual([]);
          expect(items, JSON.stringify(opts)).toEqual(JSON.parse(text.replace(/^\uFEFF/, '')));
        }
      }
    }
    expect(readAll(fileWith(' [ ] ')).items).toEqual([]);
  });

  it('reads the elements on both sides of a damaged one', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ t: i, s: i % 7 ? 'x' : '},{"t":' }));
    const text = JSON.stringify(rows);
    // Element 2000 made invalid: it is listed, the others are read.
    const at = text.indexOf('{"t":2000,');
    const damaged = `${text.slice(0, at)}{"t":2000,x}${text.slice(text.indexOf('}', at) + 1)}`;
    for (const chunkBytes of [5, 4096, 1 << 20]) {
      const { items, bad } = readAll(fileWith(damaged), { chunkBytes, maxElementBytes: 4096 });
      expect(bad).toEqual([2000]);
      expect(items).toEqual(rows.map((r, i) => (i === 2000 ? undefined : r)));
    }
  });

  it('hands a large file over in several batches, never the whole array at once', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ t: 1_700_000_000_000 + i * 1000, solar: i / 7, grid: null }));
    const { items, batches } = readAll(fileWith(JSON.stringify(rows)), { chunkBytes: 64 * 1024 });
    expect(items).toEqual(rows);
    expect(batches).toBeGreaterThan(10);
  });

  it('lists an element that is not valid JSON by its index and still reads the others', () => {
    const { items, bad } = readAll(fileWith('[{"t":1},{"t":2,x},{"t":3},nul,{"t":4}]'), { chunkBytes: 5 });
    expect(bad).toEqual([1, 3]);
    expect(items).toEqual([{ t: 1 }, undefined, { t: 3 }, undefined, { t: 4 }]);
  });

  it('refuses an element larger than the bound, inside one chunk or across several', () => {
    const big = JSON.stringify([{ t: 1 }, { pad: 'x'.repeat(5000) }]);
    for (const chunkBytes of [100, 1 << 20]) {
      const err = errorOf(fileWith(big), { chunkBytes, maxElementBytes: 4096 });
      expect(err.message).toBe('entry 1 is larger than 4096 bytes');
    }
    // After many small elements.
    const late = JSON.stringify([...Array.from({ length: 500 }, (_, t) => ({ t })), { pad: 'x'.repeat(5000) }, { t: 1 }]);
    expect(errorOf(fileWith(late), { maxElementBytes: 4096 }).message).toBe('entry 500 is larger than 4096 bytes');
    // An endless string: the reader stops at the bound, it does not buffer the whole file.
    const endless = errorOf(fileWith(`[{"t":1,"s":"${'y'.repeat(300_000)}`), { chunkBytes: 1000, maxElementBytes: 10_000 });
    expect(endless.message).toBe('entry 0 is larger than 10000 bytes');
  });

  it('says clearly what is wrong with a file that is not one JSON array', () => {
    expect(errorOf(fileWith('[{"t":1}] x')).message).toBe("not valid JSON (unexpected 'x' after the array at byte 10)");
    expect(errorOf(fileWith('[ ] x')).message).toBe("not valid JSON (unexpected 'x' after the array at byte 4)");
    expect(errorOf(fileWith('')).message).toMatch(/expected a JSON array/);
    expect(errorOf(fileWith('{"samples": []}')).message).toMatch(/expected a JSON array/);
    const cut = errorOf(fileWith('[{"t":1},{"t":2},{"t":'), { chunkBytes: 4 });
    expect(cut.message).toBe('not valid JSON (the file ends inside entry 2)');
    expect(cut.entries).toBe(2);
    expect(errorOf(fileWith('[{"t":1},{"t":2}')).message).toBe('not valid JSON (the file ends before the array closes)');
    expect(errorOf(fileWith('[{"t":1} {"t":2}]')).message).toBe("not valid JSON (unexpected '{' after entry 0 at byte 9)");
    expect(errorOf(fileWith('[{"t":1},]')).message).toMatch(/unexpected '\]'/);
    expect(errorOf(fileWith('[,{"t":1}]')).message).toMatch(/unexpected ','/);
    expect(errorOf(fileWith('[{"t":1}] [')).message).toMatch(/after the array/);
  });
});
