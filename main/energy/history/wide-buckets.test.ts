import { afterEach, describe, expect, it } from 'vitest';
import type { HistorySample } from './sample.js';
import { expectSameBuckets, makeSample, openTestHistory, referenceBuckets, T0, type TestHistory } from '../testing/history/fixtures.js';

// Buckets of ten minutes or more over the minute tier, and of ten hours or more over the hour tier
// (read a bucket at a time, not by one GROUP BY): the rows are those of the samples themselves,
// across a gap with no polls, with the edges of the window inside a bucket, newest first and cut by limit.
const MIN = 60_000;
const HOUR = 60 * MIN;
let th: TestHistory | undefined;
afterEach(async () => {
  await th?.close();
  th = undefined;
});

describe('wide buckets', () => {
  it('match the samples over the minute and hour tiers, across a gap, in either order', { timeout: 120_000 }, async () => {
    th = await openTestHistory({ retentionMs: 2 * 86_400_000 });
    const samples: HistorySample[] = [];
    // A poll every 20 s for 3 hours, nothing for 3 hours, then polls for 14 more hours.
    for (let t = T0 + 20_000; t <= T0 + 20 * HOUR; t += 20_000) if (t <= T0 + 3 * HOUR || t > T0 + 6 * HOUR) samples.push(th.appendAt(t, makeSample(t)));
    const since = T0 + 7 * MIN + 20_000;
    const until = T0 + 19 * HOUR + 5 * MIN;
    const inWindow = samples.filter((s) => s.t >= since && s.t <= until);
    for (const every of [600, 1620, 36_000]) {
      const got = await th.get(`/api/history?since=${since}&until=${until}&every=${every}`);
      expect(got.headers['x-history-bucket-seconds']).toBe(String(every));
      const want = referenceBuckets(inWindow, every * 1000);
      expectSameBuckets(got.body, want);
      const desc = await th.get(`/api/history?since=${since}&until=${until}&every=${every}&order=desc&limit=3`);
      expectSameBuckets(desc.body, want.slice(-3).reverse());
    }
  });
});
