import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './testing/harness.js';

describe('scheduler', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [{ title: 'News', items: [{ id: '900000001', title: 'ABC News - Sat 04 Jul', length: 1000 }] }] } });
    await h.api.post('/api/shows', { name: 'news', dest_folder: 'News' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => h.cleanup());

  it('schedules the default cron in the configured time zone', async () => {
    const { schedule } = (await h.api.get('/api/sync')).body;
    expect(schedule).toMatchObject({ cron: '*/30 * * * *', timezone: 'Australia/Sydney' });
    expect(new Date(schedule.next_run).getUTCMinutes() % 30).toBe(0);
  });

  it('starts a scheduled sync when the schedule reaches its next run, and not a moment before', async () => {
    const next = Date.parse((await h.api.get('/api/sync')).body.schedule.next_run);
    h.scheduleClock.advance(next - 1 - h.scheduleClock.now());
    expect(h.service.engine.current()).toBeNull();
    h.scheduleClock.advance(1);
    const running = h.service.engine.current();
    expect(running?.run.trigger).toBe('cron');
    await running!.done;
    const { runs } = (await h.api.get('/api/sync-runs')).body;
    expect(runs.map((r: { trigger: string }) => r.trigger)).toEqual(['cron']);
  });

  it("node-cron's rarer forms (last day of the month) are still scheduled, by node-cron itself", async () => {
    expect((await h.api.patch('/api/settings', { sync_cron: '0 0 L * *' })).status).toBe(200);
    let next: string | null = null;
    for (let i = 0; i < 100 && !next; i++) {
      next = (await h.api.get('/api/sync')).body.schedule.next_run;
      if (!next) await new Promise((r) => setTimeout(r, 20));
    }
    // Midnight in Sydney at the start of a month's last day: a day and a half later it is the 1st there.
    const sydneyDate = (t: number) => new Intl.DateTimeFormat('en-AU', { timeZone: 'Australia/Sydney', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).formatToParts(new Date(t));
    const at = Date.parse(next!);
    expect(sydneyDate(at).filter((p) => p.type === 'hour' || p.type === 'minute').map((p) => p.value)).toEqual(['00', '00']);
    expect(sydneyDate(at + 36 * 3_600_000).find((p) => p.type === 'day')!.value).toBe('1');
    expect((await h.api.patch('/api/settings', { sync_cron: '*/30 * * * *' })).status).toBe(200);
  });

  it('takes a new sync_cron without a restart, keeps the old one on an invalid value', async () => {
    const bad = await h.api.patch('/api/settings', { sync_cron: '61 * * * *' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('sync_cron');
    expect((await h.api.get('/api/sync')).body.schedule.cron).toBe('*/30 * * * *');

    // Every second (node-cron's six-field form): the reloaded task must fire a `cron` run by itself.
    expect((await h.api.patch('/api/settings', { sync_cron: '* * * * * *' })).status).toBe(200);
    expect((await h.api.get('/api/sync')).body.schedule.cron).toBe('* * * * * *');
    // Until that run has ended (its download takes longer on a busy machine than 120 looks did).
    let runs: Array<{ trigger: string; status: string }> = [];
    await vi.waitFor(
      async () => {
        runs = (await h.api.get('/api/sync-runs')).body.runs;
        expect(runs.some((r) => r.trigger === 'cron' && r.status !== 'running')).toBe(true);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(runs.find((r) => r.trigger === 'cron' && r.status !== 'running')).toMatchObject({ status: 'ok' });
    await h.api.patch('/api/settings', { sync_cron: '0 3 * * *' });
    expect((await h.api.get('/api/sync')).body.schedule.cron).toBe('0 3 * * *');
    const rows = (await h.api.get('/api/recordings')).body.recordings;
    expect(rows).toEqual([expect.objectContaining({ box_id: '900000001', status: 'done', file_path: expect.stringContaining('News/Season 00/ABC News - Sat 04 Jul.ts') })]);
  });
});
