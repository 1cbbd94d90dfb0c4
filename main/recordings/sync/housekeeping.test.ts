import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../core/clock.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { startHarness, type Harness } from '../testing/harness.js';

const DAY = 24 * 3600 * 1000;

/**
 * Sync housekeeping (../shared/reference/open-values.md): rows deleted from the box stay as
 * tombstones for 30 days, then go; the sync history keeps the newest 500 runs.
 */
describe('sync housekeeping', () => {
  let h: Harness;
  let db: Database.Database;
  const now = () => systemClock.now();
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [sampleShow('News', 400000001, 1, () => 1000)] } });
    await h.api.post('/api/shows', { name: 'news', dest_folder: 'News' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    expect(await h.syncAndWait()).toMatchObject({ status: 'ok' });
    db = new Database(path.join(h.dataDir, 'state.db'));
  });
  afterAll(async () => {
    db.close();
    await h.cleanup();
  });

  it('purges tombstones 30 days after they were deleted from the box, not before', async () => {
    const insert = db.prepare(`INSERT INTO recordings (box_id, show_title, box_title, expected_size, status, purged_at, updated_at) VALUES (?, 'News', ?, 10, 'done', ?, 1)`);
    insert.run('900000001', 'gone a month and a minute ago', now() - 30 * DAY - 60_000);
    insert.run('900000002', 'gone a minute short of a month ago', now() - 30 * DAY + 60_000);
    h.service.recordings.invalidate();
    expect(await h.syncAndWait()).toMatchObject({ status: 'ok' });
    const ids = ((await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string }>).map((r) => r.box_id).sort();
    expect(ids).toEqual(['400000001', '900000002']);
  });

  it('keeps the newest 500 sync runs', async () => {
    const insert = db.prepare(`INSERT INTO sync_runs (trigger, started_at, finished_at, status, summary_json) VALUES ('cron', ?, ?, 'ok', '{}')`);
    db.transaction(() => {
      for (let i = 0; i < 600; i++) insert.run(i, i + 1);
    })();
    const run = await h.syncAndWait();
    expect(db.prepare('SELECT COUNT(*) AS n FROM sync_runs').get()).toEqual({ n: 500 });
    const runs = (await h.api.get('/api/sync-runs?limit=500')).body.runs as Array<{ id: number }>;
    expect(runs).toHaveLength(500);
    expect(runs[0]!.id).toBe(run.id);
  });
});
