import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../core/paths.js';
import { expectSameBuckets, makeSample, openTestHistory, referenceBuckets, T0, type TestHistory } from '../testing/history/fixtures.js';
import type { HistorySample } from './sample.js';

// issue 40 and docs/energy-history-api.md (extension): with `every` >= 60 and `since`, a read
// reaches past the raw retention into the minute tier, and past the minute retention into the
// hour tier (kept for good). Without `since`, or with `every` under a minute, the spec's window
// (cut to the retention) is unchanged.
const MIN = 60_000;
const HOUR = 60 * MIN;
let th: TestHistory | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

describe('reads older than the raw retention', () => {
  it('come from the minute tier, then the hour tier, once the samples are pruned', { timeout: 120_000 }, async () => {
    // Raw for 1 hour, minutes for 4 hours; 8 hours of a poll every 20 s.
    th = await openTestHistory({ retentionMs: HOUR, minuteRetentionMs: () => 4 * HOUR });
    const samples: HistorySample[] = [];
    for (let t = T0 + 20_000; t <= T0 + 8 * HOUR; t += 20_000) samples.push(th.appendAt(t, makeSample(t)));
    th.history.prune();
    const now = th.clock.now();
    const stats = th.history.stats();
    expect(stats.firstT).toBe(now - HOUR);

    // Whole hours over everything, from the hour tier: the same as the raw samples said.
    const hours = await th.get(`/api/history?since=${T0}&every=3600`);
    expect(hours.headers['x-history-bucket-seconds']).toBe('3600');
    expectSameBuckets(hours.body, referenceBuckets(samples, HOUR));

    // Whole minutes: exact where minutes are kept; before that, each hour whole at its start.
    const minutes = (await th.get(`/api/history?since=${T0}&every=60`)).body as Array<{ t: number; n: number }>;
    const minuteCut = now - 4 * HOUR;
    const kept = minutes.filter((r) => r.t >= minuteCut);
    expectSameBuckets(kept, referenceBuckets(samples, MIN).filter((r) => r.t! >= Math.ceil(minuteCut / MIN) * MIN));
    const older = minutes.filter((r) => r.t < minuteCut);
    expect(older.map((r) => [r.t, r.n])).toEqual(referenceBuckets(samples, HOUR).filter((r) => r.t! + HOUR <= minuteCut).map((r) => [r.t, r.n]));

    // An hour or more that is not whole hours (90 minutes): each hour before the raw cutoff whole in
    // the bucket of its start, read from the hour tier (a year of them answers at once), minutes
    // kept or not: the hour from 4 h to 5 h, which minutes would split, goes whole into [3 h, 4.5 h).
    const wide = (await th.get(`/api/history?since=${T0}&every=5400`)).body as Array<{ t: number; n: number }>;
    const hourly = referenceBuckets(samples, HOUR).filter((r) => r.t! + HOUR <= now - HOUR);
    const perBucket = new Map<number, number>();
    for (const r of hourly) perBucket.set(Math.floor(r.t! / 5_400_000) * 5_400_000, (perBucket.get(Math.floor(r.t! / 5_400_000) * 5_400_000) ?? 0) + r.n!);
    expect(wide.filter((r) => r.t + 5_400_000 <= Math.floor((now - HOUR) / HOUR) * HOUR).map((r) => [r.t, r.n])).toEqual([...perBucket].slice(0, -1));

    // The spec's window is unchanged: no since, or every under a minute, stays inside the raw retention.
    const spec = (await th.get('/api/history?every=600')).body as Array<{ t: number }>;
    expect(spec[0]!.t).toBe(Math.floor((now - HOUR) / 600_000) * 600_000);
    const fine = (await th.get(`/api/history?since=${T0}&every=30`)).body as Array<{ t: number }>;
    expect(fine[0]!.t).toBeGreaterThanOrEqual(now - HOUR - 30_000);
    const raw = (await th.get(`/api/history?since=${T0}`)).body as Array<{ t: number }>;
    expect(raw[0]!.t).toBe(now - HOUR);
  });
});

// fixtures/anchors/README.md: sigen-home-bridge's own data folder, written by that program.
const ANCHOR = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'anchors', 'sigen-home-bridge');
if (!fs.existsSync(ANCHOR)) console.warn(`skipped: the anchor import into the tiers needs sigen-home-bridge's folder at ${ANCHOR} (../shared/fixtures/anchors)`);

describe("the anchors' history (sigen-home-bridge's history.db and legacy JSON)", () => {
  it.skipIf(!fs.existsSync(ANCHOR))('imports into the samples and builds the minute and hour tiers of every imported row', { timeout: 120_000 }, async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-anchor-'));
    try {
      fs.copyFileSync(path.join(ANCHOR, 'history.db'), path.join(tmp, 'history.db'));
      fs.copyFileSync(path.join(ANCHOR, 'legacy-history.json.original'), path.join(tmp, 'history.json'));
      const facts = JSON.parse(fs.readFileSync(path.join(ANCHOR, 'facts.json'), 'utf8')) as { history: { rows: number; min_t: number; max_t: number } };
      th = await openTestHistory({ start: facts.history.max_t + 1000, retentionMs: 3650 * 86_400_000 });
      const reports = await th.history.importFiles([
        { file: path.join(tmp, 'history.db'), format: 'sigen-db' },
        { file: path.join(tmp, 'history.json'), format: 'sigen-json' },
      ], undefined, 0);
      expect(reports.map((r) => r.status)).toEqual(['imported', 'imported']);
      // Its legacy JSON repeats rows its database holds: every row once.
      expect(th.history.stats()).toEqual({ count: facts.history.rows, firstT: facts.history.min_t, lastT: facts.history.max_t });
      const db = new Database(th.history.file, { readonly: true });
      try {
        expect(db.prepare('SELECT sum(n) FROM minute').pluck().get()).toBe(th.history.stats().count);
        expect(db.prepare('SELECT sum(n) FROM hour').pluck().get()).toBe(th.history.stats().count);
      } finally {
        db.close();
      }
      const all = th.history.query({ since: 0, every: 60 });
      expect(all.kind).toBe('downsampled');
      expect(all.rows.reduce((a, r) => a + (r as { n: number }).n, 0)).toBe(th.history.stats().count);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
