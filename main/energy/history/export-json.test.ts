import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DurableStore } from './durable-store.js';
import { exportCursor } from './export.js';
import { makeSample, T0 } from '../testing/history/fixtures.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

/** The cursor's whole output as text (byte pages and JS strings alike). */
function drain(cursor: { next(): string | Buffer | null }): string {
  let text = '';
  for (let c = cursor.next(); c !== null; c = cursor.next()) text += typeof c === 'string' ? c : c.toString('utf8');
  return text;
}

describe('JSON export of every sample', () => {
  let dir: string;
  let store: DurableStore;
  const samples: HistorySample[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-export-json-'));
    store = new DurableStore(path.join(dir, 'history.db'));
    for (let i = 0; i < 9; i++) samples.push(makeSample(T0 + i * 1000));
    // Doubles whose shortest text is long or unusual must still read back as the same value.
    Object.assign(samples[2]!, { solar: 0.1 + 0.2, grid: 1e20, battery: 5e-324, home: -123456789.125, soc: 100 });
    Object.assign(samples[3]!, { solar: null, grid: null, soc: null, outdoorTemp: -0.05 });
    store.insertMany(samples);
  });
  afterAll(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives the samples back exactly, with pages ending on and off a page edge, and an empty array', () => {
    // 9 rows: pages of 4 end short; pages of 3 end exactly on the edge (the closing page is empty).
    for (const pageSize of [4, 3, 9, 100]) {
      const text = drain(exportCursor({ durable: store, cutoff: T0, format: 'json', pageSize }));
      expect(JSON.parse(text), `pages of ${pageSize}`).toEqual(samples);
    }
    expect(drain(exportCursor({ durable: store, cutoff: T0 + 9000, format: 'json' }))).toBe('[]');
    const after = JSON.parse(drain(exportCursor({ durable: store, cutoff: T0 + 5000, format: 'json', pageSize: 2 })));
    expect(after).toEqual(samples.slice(5));
  });

  it('holds the same values as the JS-written downsampled path reads from the same rows', () => {
    // The downsampled path (every=1: one bucket per sample) and the sample rows agree on every value.
    const viaSql = JSON.parse(drain(exportCursor({ durable: store, cutoff: T0, format: 'json' }))) as HistorySample[];
    const viaJs = JSON.parse(drain(exportCursor({ durable: store, cutoff: T0, format: 'json', every: 1 }))) as Array<Record<string, number | null>>;
    expect(viaJs.map((r) => r.t)).toEqual(viaSql.map((s) => s.t));
    viaSql.forEach((s, i) => {
      for (const [k, v] of Object.entries(s)) if (k !== 't') expect(viaJs[i]![k === 'soc' || k === 'outdoorTemp' ? k : `${k}Min`]).toBe(v);
    });
  });
});

describe('CSV export of every sample', () => {
  let dir: string;
  let store: DurableStore;
  const samples: HistorySample[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-export-csv-'));
    store = new DurableStore(path.join(dir, 'history.db'));
    // Odd milliseconds across a minute, a day and a year edge: the ISO column must say them exactly.
    const starts = [T0 - 1_501, Date.UTC(2026, 2, 29, 23, 59, 58, 999), Date.UTC(2027, 11, 31, 23, 59, 59, 1)];
    for (const start of starts) for (let i = 0; i < 40; i++) samples.push(makeSample(start + i * 997 + (i % 7) * 13));
    Object.assign(samples[2]!, { solar: 0.1 + 0.2, grid: 1e20, battery: 5e-324, home: -123456789.125, soc: 100 });
    Object.assign(samples[3]!, { solar: null, grid: null, soc: null, outdoorTemp: -0.05 });
    // Inserted newest first: the export's order must come from `t`, not from the insert order.
    store.insertMany([...samples].reverse());
    samples.sort((a, b) => a.t - b.t);
  });
  afterAll(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const parse = (text: string) => {
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe('');
    return { header: lines[0], rows: lines.slice(1, -1).map((l) => l.split(',')) };
  };

  it('gives every sample back exactly, in time order, with ISO times as toISOString writes them', () => {
    for (const pageSize of [7, 40, 120, 1000]) {
      const { header, rows } = parse(drain(exportCursor({ durable: store, cutoff: T0 - 10_000, format: 'csv', pageSize })));
      expect(header, `pages of ${pageSize}`).toBe(['time', 't', ...SAMPLE_FIELDS].join(','));
      expect(rows.map((r) => r[0]), `pages of ${pageSize}`).toEqual(samples.map((s) => new Date(s.t).toISOString()));
      const back = rows.map((cells) => {
        const s = { t: Number(cells[1]) } as HistorySample;
        SAMPLE_FIELDS.forEach((f, j) => (s[f] = cells[j + 2] === '' ? null : Number(cells[j + 2])));
        return s;
      });
      expect(back, `pages of ${pageSize}`).toEqual(samples);
      // Whole numbers read as they would in a spreadsheet: 100, not 100.0.
      expect(rows[2]![2 + SAMPLE_FIELDS.indexOf('soc')], `pages of ${pageSize}`).toBe('100');
    }
  });

  it('writes only the header for an empty range', () => {
    expect(drain(exportCursor({ durable: store, cutoff: Date.UTC(2030, 0, 1), format: 'csv' }))).toBe(`time,t,${SAMPLE_FIELDS.join(',')}\n`);
  });
});
