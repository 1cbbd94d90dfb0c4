import { describe, expect, it } from 'vitest';
import type { Recording, SyncRun } from '../types.js';
import { countsLine, lastRunWith, thisWeek } from './overview-data.js';

const NOW = Date.UTC(2026, 10, 25, 10, 0, 0);
const row = (over: Partial<Recording>): Recording => ({ status: 'done', downloaded_at: new Date(NOW - 3600_000).toISOString(), size: 1000, ...over }) as Recording;
const run = (id: number, summary: SyncRun['summary'], status: SyncRun['status'] = 'ok'): SyncRun => ({ id, trigger: 'manual', show_id: null, started_at: '', finished_at: '', status, summary });

describe('overview tiles', () => {
  it('counts done recordings of the last 7 days only', () => {
    const rows = [
      row({}),
      row({ size: 500, downloaded_at: new Date(NOW - 6.9 * 86_400_000).toISOString() }),
      row({ downloaded_at: new Date(NOW - 7.1 * 86_400_000).toISOString() }),
      row({ status: 'failed' }),
      row({ downloaded_at: null }),
    ];
    expect(thisWeek(rows, NOW)).toEqual({ count: 2, bytes: 1500 });
  });
  it('says the counts of a run without zeros, and "nothing new" for an empty one', () => {
    expect(countsLine(run(1, { downloaded: 3, failed: 0, skipped: 1 }))).toBe('3 downloaded · 1 skipped');
    expect(countsLine(run(2, { downloaded: 0, failed: 0, skipped: 0 }))).toBe('nothing new');
  });
  it('says what a running run is doing, never "nothing new" while it downloads', () => {
    expect(countsLine(run(3, { downloaded: 0, failed: 0, skipped: 0 }, 'running'), 2)).toBe('downloading 2 now');
    expect(countsLine(run(3, { downloaded: 1, failed: 0, skipped: 0 }, 'running'), 1)).toBe('downloading 1 now · 1 downloaded so far');
    expect(countsLine(run(3, null, 'running'))).toBe('checking the box for new recordings');
  });
  it('finds the newest finished run that refreshed the media server (not one that was not configured)', () => {
    const runs = [run(5, null, 'running'), run(4, { downloaded: 0, failed: 0, skipped: 0, media_server_refresh: 'not_configured' }), run(3, { downloaded: 1, failed: 0, skipped: 0, media_server_refresh: 'ok' })];
    expect(lastRunWith(runs, 'media_server_refresh')?.id).toBe(3);
    expect(lastRunWith(runs, 'box_deleted')).toBeNull();
  });
});
