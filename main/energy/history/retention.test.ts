import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSample, openTestHistory, T0, type TestHistory } from '../testing/history/fixtures.js';

const HOUR = 3_600_000;
/** The spec's durable prune timer: every 5 minutes. */
const PRUNE_EVERY_MS = 5 * 60_000;
let th: TestHistory | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

/** What is on disk, read with a separate connection: the durable copy as another reader sees it. */
function onDisk(file: string): { count: number; first: number | null } {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare('SELECT count(*) AS count, min(t) AS first FROM samples').get() as { count: number; first: number | null };
    return row;
  } finally {
    db.close();
  }
}

describe('retention', () => {
  it('trims memory on each poll and prunes the table on the five-minute timer', async () => {
    th = await openTestHistory({ retentionMs: HOUR });
    for (let t = T0 + 1000; t <= T0 + 2 * HOUR; t += 1000) th.appendAt(t);
    const now = th.clock.now();

    // Memory holds exactly the last hour after every poll.
    expect(th.history.inMemory()).toEqual({ count: 3601, firstT: now - HOUR, lastT: now });
    // Stats and queries never show anything older than retention, even between prunes.
    expect(th.history.stats()).toEqual({ count: 3601, firstT: now - HOUR, lastT: now });
    const rows = (await th.get(`/api/history?since=${T0}`)).body as Array<{ t: number }>;
    expect(rows[0]!.t).toBe(now - HOUR);
    expect(rows).toHaveLength(3601);

    // The table was pruned by the timer: it holds at most five minutes beyond retention.
    const disk = onDisk(th.history.file);
    expect(disk.first!).toBeGreaterThanOrEqual(now - HOUR - PRUNE_EVERY_MS);
    expect(disk.count).toBeLessThanOrEqual(3601 + PRUNE_EVERY_MS / 1000);

    // With no more polls, the next timer tick prunes to the window.
    th.clock.advance(PRUNE_EVERY_MS);
    const cutoff = th.clock.now() - HOUR;
    const after = onDisk(th.history.file);
    expect(after.first!).toBeGreaterThanOrEqual(cutoff);
    expect(after.count).toBe((now - cutoff) / 1000 + 1);
    expect(th.history.stats().count).toBe(after.count);
  });

  it('applies a retention change live, to memory and to the table, and survives a restart', async () => {
    th = await openTestHistory({ retentionMs: HOUR });
    for (let t = T0 + 1000; t <= T0 + HOUR; t += 1000) th.appendAt(t);
    th.retention.ms = 10 * 60_000;
    const s = th.appendAt(T0 + HOUR + 1000);
    const cutoff = s.t - th.retention.ms;
    expect(th.history.inMemory().firstT).toBe(cutoff);
    expect(onDisk(th.history.file)).toEqual({ count: 601, first: cutoff });
    expect(th.history.stats()).toEqual({ count: 601, firstT: cutoff, lastT: s.t });

    await th.restart();
    expect(th.history.stats()).toEqual({ count: 601, firstT: cutoff, lastT: s.t });
    // Memory starts again from the newest stored sample (a poll not newer is still skipped); the
    // history read answers the whole window from the durable copy.
    expect(th.history.inMemory()).toEqual({ count: 1, firstT: s.t, lastT: s.t });
    const last = (await th.get('/api/history?limit=1')).body;
    expect(last).toEqual([makeSample(s.t)]);
    const all = (await th.get('/api/history')).body as Array<{ t: number }>;
    expect([all.length, all[0]!.t, all.at(-1)!.t]).toEqual([601, cutoff, s.t]);
    expect(th.history.query({}).rows).toHaveLength(601);
    // A poll from before the newest stored one (a clock set back) is skipped, not stored among the old rows.
    expect(th.history.append(makeSample(s.t - 1500))).toBe(false);
    expect(th.history.stats().count).toBe(601);
  });

  it('keeps the durable copy beyond the 20,000-sample memory window', async () => {
    th = await openTestHistory();
    for (let t = T0 + 1000; t <= T0 + 25_000_000; t += 1000) th.appendAt(t);
    expect(th.history.inMemory()).toEqual({ count: 20_000, firstT: T0 + 5_001_000, lastT: T0 + 25_000_000 });
    expect(th.history.stats()).toEqual({ count: 25_000, firstT: T0 + 1000, lastT: T0 + 25_000_000 });
    const oldest = (await th.get(`/api/history?until=${T0 + 5_000_000}&limit=2`)).body;
    expect(oldest).toEqual([makeSample(T0 + 4_999_000), makeSample(T0 + 5_000_000)]);
  });
});
