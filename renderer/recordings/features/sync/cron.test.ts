import { describe, expect, it } from 'vitest';
import { describeCron, nextRuns } from './cron.js';

describe('cron preview', () => {
  const from = Date.UTC(2026, 10, 22, 20, 7, 30); // Sun 22 Nov 2026 20:07:30 UTC

  it('lists the next runs in the service time zone', () => {
    expect(nextRuns('*/30 * * * *', 'UTC', from).map((t) => new Date(t).toISOString())).toEqual([
      '2026-11-22T20:30:00.000Z',
      '2026-11-22T21:00:00.000Z',
      '2026-11-22T21:30:00.000Z',
    ]);
    // 03:15 in Sydney (UTC+11 in November) is 16:15 UTC the day before.
    expect(new Date(nextRuns('15 3 * * *', 'Australia/Sydney', from, 1)[0]!).toISOString()).toBe('2026-11-23T16:15:00.000Z');
    expect(new Date(nextRuns('0 6 * * mon', 'UTC', from, 1)[0]!).toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(nextRuns('*/20 * * * * *', 'UTC', from, 2).map((t) => new Date(t).toISOString())).toEqual(['2026-11-22T20:07:40.000Z', '2026-11-22T20:08:00.000Z']);
  });

  it('both day fields must match, as the service runs it: "0 8 13 * 5" is Friday the 13th, not every Friday and every 13th', () => {
    const runs = nextRuns('0 8 13 * 5', 'UTC', from, 2).map((t) => new Date(t).toISOString());
    expect(runs).toEqual(['2027-08-13T08:00:00.000Z', '2028-10-13T08:00:00.000Z']);
  });

  it('says nothing about an expression it cannot read', () => {
    expect(nextRuns('every tuesday', 'UTC', from)).toEqual([]);
    expect(nextRuns('61 * * * *', 'UTC', from)).toEqual([]);
    expect(describeCron('nonsense')).toBeNull();
  });

  it('describes common schedules in words', () => {
    expect(describeCron('*/30 * * * *')).toBe('every 30 minutes');
    expect(describeCron('5 * * * *')).toBe('every hour at :05');
    expect(describeCron('15 3 * * *')).toBe('every day at 03:15');
    expect(describeCron('0 6,18 * * 1-5')).toBe('every Monday, Tuesday, Wednesday, Thursday, Friday at 06:00, 18:00');
  });
});
