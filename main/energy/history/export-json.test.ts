import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DurableStore } from './durable-store.js';
import { exportCursor } from './export.js';
import { makeSample, T0 } from './fixtures.js';
import type { HistorySample } from './sample.js';

/** The cursor's whole output as text (SQLite-written buffers and JS strings alike). */
function drain(cursor: { next(): string | Buffer | null }): string {
  let text = '';
  for (let c = cursor.next(); c !== null; c = cursor.next()) text += typeof c === 'string' ? c : c.toString('utf8');
  return text;
}

describe('JSON export written by SQLite', () => {
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
    // The JS path (every=1: one bucket per sample) and SQLite's text agree on every value.
    const viaSql = JSON.parse(drain(exportCursor({ durable: store, cutoff: T0, format: 'json' }))) as HistorySample[];
    const viaJs = JSON.parse(drain(exportCursor({ durable: store, cutoff: T0, format: 'json', every: 1 }))) as Array<Record<string, number | null>>;
    expect(viaJs.map((r) => r.t)).toEqual(viaSql.map((s) => s.t));
    viaSql.forEach((s, i) => {
      for (const [k, v] of Object.entries(s)) if (k !== 't') expect(viaJs[i]![k === 'soc' || k === 'outdoorTemp' ? k : `${k}Min`]).toBe(v);
    });
  });
});
