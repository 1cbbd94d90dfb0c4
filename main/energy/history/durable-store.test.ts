import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REBUILD_MINUTES_SQL } from './durable-schema.js';
import { DurableStore } from './durable-store.js';
import { makeSample, T0 } from './fixtures.js';

describe('bulk inserts and the per-minute rollup', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('leaves the rollup equal to one rebuilt from the stored samples, mixed with single inserts and repeats', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-durable-'));
    const store = new DurableStore(path.join(dir, 'history.db'));
    try {
      // Polls one by one (the trigger), then an import over the same minutes with repeats and gaps.
      for (let t = T0 + 30_000; t < T0 + 5 * 60_000; t += 7_000) store.insert(makeSample(t));
      const bulk = [];
      for (let t = T0; t < T0 + 9 * 60_000; t += 3_000) bulk.push(makeSample(t));
      bulk.push(makeSample(T0 + 30_000)); // already stored: skipped, not counted twice
      const inserted = store.insertMany(bulk);
      expect(inserted).toBe(store.count() - 39);
      expect(store.db.prepare('SELECT count(*) FROM bulk_insert').pluck().get()).toBe(0);
      const rollup = () => store.db.prepare('SELECT * FROM minutes ORDER BY m').all() as Array<Record<string, number | null>>;
      const kept = rollup();
      store.db.exec('DELETE FROM minutes');
      store.db.prepare(REBUILD_MINUTES_SQL).run({ lo: 0, hi: Math.floor((T0 + 10 * 60_000) / 60_000) });
      const rebuilt = rollup();
      expect(kept.map((r) => [r.m, r.n])).toEqual(rebuilt.map((r) => [r.m, r.n]));
      kept.forEach((row, i) => {
        for (const [k, v] of Object.entries(rebuilt[i]!)) {
          if (typeof v === 'number' && k.endsWith('_s')) expect(Math.abs((row[k] as number) - v), `${k} of minute ${row.m}`).toBeLessThan(1e-6);
          else expect(row[k], `${k} of minute ${row.m}`).toBe(v);
        }
      });
      // A poll after the import still goes through the trigger.
      store.insert(makeSample(T0 + 9 * 60_000 + 1000));
      expect(store.db.prepare('SELECT n FROM minutes WHERE m = ?').pluck().get(Math.floor((T0 + 9 * 60_000) / 60_000))).toBe(1);
    } finally {
      store.close();
    }
  });
});
