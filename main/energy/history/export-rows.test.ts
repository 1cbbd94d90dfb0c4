import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DurableStore } from './durable-store.js';
import { ExportRowWriter, writeNumber } from './export-rows.js';
import { T0 } from './fixtures.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

/** One number through writeNumber, as text. */
function written(v: number): string {
  const b = new Uint8Array(64);
  return Buffer.from(b.subarray(0, writeNumber(b, 0, v))).toString('latin1');
}

/** A deterministic pseudo-random source (the same values on every run). */
function random(seed: number) {
  return () => (seed = (seed * 48271) % 2147483647) / 2147483647;
}

describe('ExportRowWriter numbers', () => {
  it('writes every number exactly as String() does', () => {
    const rnd = random(7);
    const values = [0, -0, 1, -1, 0.1, 0.3, 0.1 + 0.2, -0.05, 0.05, 0.5, -0.5, 99.99, 100, 123.456, 1e-7, 5e-324, 1e20, 1e21, -1e21, 2 ** 31 - 2, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) + 1, -(2 ** 31), 2 ** 31 + 0.25];
    values.push(999_999_999_999_999, 1e15, -999_999_999_999_999, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, -Number.MIN_VALUE, T0, -T0, T0 + 0.5);
    values.push(21_474_836.47, -21_474_836.47, 21_474_836.48, 2_147_483.65, 1.005, 2.675, 1.1, 10.1, 0.07, -0.07, 1234.5, 1234.56, -9876.54);
    // Edges of the 32-bit paths: hundredths at ±2^31, whole numbers at ±2^31 and 10-digit ones.
    values.push(-21_474_836.48, 21_474_836.49, -21_474_836.49, 2_147_483_647.01, -2_147_483_647.99, 2 ** 31 + 1, -(2 ** 31) - 1, 1_999_999_999, 99_999_999.99, 0.01, -0.01, 0.1, -0.1, 1e15 - 1, -1e15 + 1);
    for (let i = 0; i < 40_000; i++) {
      values.push(
        Math.round((rnd() - 0.5) * 2e6) / 100, // watts with two decimals
        Math.round((rnd() - 0.5) * 2e5) / 10, // one decimal
        Math.round((rnd() - 0.5) * 2e5), // whole watts
        (rnd() - 0.5) * 1e4, // arbitrary doubles
        Math.round((rnd() - 0.5) * 2e12) / 100, // two decimals past 2^31 when scaled
        T0 + Math.round(rnd() * 1e12), // epoch milliseconds
        (rnd() - 0.5) * 10 ** Math.round(rnd() * 40 - 20), // every magnitude
      );
    }
    // One assertion over all the values (one expect() each takes seconds on a loaded machine).
    const wrong = values.filter((v) => written(v) !== String(v));
    expect(wrong.map((v) => [v, written(v)])).toEqual([]);
  });
});

/** The statements the exports used before the rows were written in JavaScript (the reference). */
const SQLITE_JSON = `json_object('t', t, ${SAMPLE_FIELDS.map((f) => `'${f}', ${f}`).join(', ')})`;
const SQLITE_CSV = `strftime('%Y-%m-%dT%H:%M:%fZ', t / 1000.0, 'unixepoch') || ',' || t || ${SAMPLE_FIELDS.map((f) => `',' || coalesce(CASE WHEN ${f} = CAST(${f} AS INTEGER) THEN CAST(${f} AS INTEGER) ELSE ${f} END, '')`).join(' || ')}`;

describe('ExportRowWriter rows against what SQLite wrote for the same table', () => {
  let dir: string;
  let store: DurableStore;
  let rows: unknown[][];
  const samples: HistorySample[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-export-rows-'));
    store = new DurableStore(path.join(dir, 'history.db'));
    const rnd = random(3);
    // Odd milliseconds across minute, day and year edges; every kind of value in every field.
    const starts = [T0 - 1_501, Date.UTC(2026, 2, 29, 23, 59, 58, 999), Date.UTC(2027, 11, 31, 23, 59, 59, 1), Date.UTC(1999, 11, 31, 23, 59, 30)];
    const kinds = [
      () => null,
      () => Math.round((rnd() - 0.5) * 2e6) / 100,
      () => Math.round((rnd() - 0.5) * 2e4),
      () => (rnd() - 0.5) * 1e3,
      () => Math.round(rnd() * 1000) / 10,
      () => -Math.round(rnd() * 1e14) / 100,
      () => [0.1 + 0.2, 1e20, 5e-324, -123456789.125, 1e-7, 2 ** 40, -0.05, 100][Math.floor(rnd() * 8)]!,
    ];
    for (const start of starts) {
      for (let i = 0; i < 300; i++) {
        const s = { t: start + i * 997 + (i % 7) * 13 } as HistorySample;
        SAMPLE_FIELDS.forEach((f, j) => (s[f] = kinds[(i + j * 3) % kinds.length]!()));
        samples.push(s);
      }
    }
    store.insertMany(samples);
    samples.sort((a, b) => a.t - b.t);
    rows = store.db.prepare(`SELECT t, ${SAMPLE_FIELDS.join(', ')} FROM samples ORDER BY t`).raw().all() as unknown[][];
  });
  afterAll(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const render = (format: 'csv' | 'json', chunkBytes?: number) => {
    const chunks: Buffer[] = [];
    const w = new ExportRowWriter(format, (c) => chunks.push(c), { chunkBytes });
    for (const r of rows) w.row(r);
    w.flush();
    return { text: Buffer.concat(chunks).toString('utf8'), chunks: chunks.length };
  };

  it('JSON: the same values as SQLite json_object gave, and as the stored samples', () => {
    const ours = JSON.parse('[' + render('json').text + ']') as HistorySample[];
    const theirs = (store.db.prepare(`SELECT ${SQLITE_JSON} FROM samples ORDER BY t`).pluck().all() as string[]).map((o) => JSON.parse(o) as HistorySample);
    expect(ours).toEqual(theirs);
    expect(ours).toEqual(samples);
  });

  it('CSV: the ISO time SQLite wrote, and cells that read back as the same values', () => {
    const ours = render('csv').text.split('\n');
    expect(ours.pop()).toBe('');
    const theirs = store.db.prepare(`SELECT ${SQLITE_CSV} FROM samples ORDER BY t`).pluck().all() as string[];
    expect(ours).toHaveLength(theirs.length);
    const cells = (line: string) => line.split(',');
    const values = (line: string) => cells(line).slice(1).map((c) => (c === '' ? null : Number(c)));
    expect(ours.map((l) => cells(l)[0])).toEqual(theirs.map((l) => cells(l)[0]));
    expect(ours.map((l) => cells(l)[0])).toEqual(samples.map((s) => new Date(s.t).toISOString()));
    expect(ours.map(values)).toEqual(theirs.map(values));
    expect(ours.map(values)).toEqual(samples.map((s) => [s.t, ...SAMPLE_FIELDS.map((f) => s[f])]));
  });

  it('splits into chunks at row ends only: many small chunks join to the same text', () => {
    for (const format of ['csv', 'json'] as const) {
      const whole = render(format);
      const small = render(format, 1);
      expect(whole.chunks, format).toBe(1);
      expect(small.chunks, format).toBeGreaterThan(100);
      expect(small.text, format).toBe(whole.text);
    }
  });

  it('takes a buffer only for rows to write: every buffer it took is handed over, none is left unused', () => {
    // The workers lend their chunk buffers to the HTTP thread and get them back: a buffer taken
    // and never handed over (say, at the end of every page) would be a fresh megabyte each time.
    for (const rowCount of [0, 1, rows.length]) {
      let taken = 0;
      const handed: Buffer[] = [];
      const w = new ExportRowWriter('json', (c) => handed.push(c), { chunkBytes: 1, allocate: (n) => (taken++, Buffer.allocUnsafe(n)) });
      for (const r of rows.slice(0, rowCount)) w.row(r);
      w.flush();
      w.flush();
      expect(taken, `${rowCount} rows`).toBe(handed.length);
      expect(handed.length > 0, `${rowCount} rows`).toBe(rowCount > 0);
    }
  });

  it('puts a comma before the first JSON object only when told it is not the first row', () => {
    const text = (firstRow: boolean) => {
      const chunks: Buffer[] = [];
      const w = new ExportRowWriter('json', (c) => chunks.push(c), { firstRow });
      w.row([T0, 1, null, -2.5, 0, 0, 0, 0, 0, 50, null]);
      w.flush();
      return Buffer.concat(chunks).toString();
    };
    const obj = '{"t":1767225600000,"solar":1,"solarNative":null,"solarThirdParty":-2.5,"home":0,"homeGeneral":0,"smartPort":0,"grid":0,"battery":0,"soc":50,"outdoorTemp":null}';
    expect(text(true)).toBe(obj);
    expect(text(false)).toBe(',' + obj);
  });
});
