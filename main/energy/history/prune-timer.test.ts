import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestHistory, T0, type TestHistory } from '../testing/history/fixtures.js';

/** Spec (energy-bridge.md, Limits): the durable copy is pruned on a timer every 5 minutes; the ticks below are its multiples. */
const HOUR = 3_600_000;
const MIN = 60_000;

let th: TestHistory | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

function rowsOnDisk(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM samples').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('durable prune timer', () => {
  it('runs every five minutes from start: not a millisecond before a tick, and exactly at it', async () => {
    th = await openTestHistory({ retentionMs: HOUR });
    // Ten minutes of polls, one a second, then the poller goes quiet.
    for (let t = T0 + 1000; t <= T0 + 10 * MIN; t += 1000) th.appendAt(t);
    expect(rowsOnDisk(th.history.file)).toBe(600);

    // Just before the tick at 65 min nothing has left the disk: the tick at 60 min cut at T0,
    // older than every sample (and no tick ran in between).
    th.clock.set(T0 + 65 * MIN - 1);
    expect(rowsOnDisk(th.history.file)).toBe(600);
    // The tick at 65 min cuts at T0 + 5 min: the first five minutes of samples go.
    th.clock.set(T0 + 65 * MIN);
    const afterFirst = rowsOnDisk(th.history.file);
    expect(afterFirst).toBeGreaterThanOrEqual(300);
    expect(afterFirst).toBeLessThanOrEqual(301);
    // Nothing more until the next tick at 70 min, which cuts the rest.
    th.clock.set(T0 + 70 * MIN - 1);
    expect(rowsOnDisk(th.history.file)).toBe(afterFirst);
    th.clock.set(T0 + 70 * MIN);
    expect(rowsOnDisk(th.history.file)).toBeLessThanOrEqual(1);
  });
});
