import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoClock } from '../../core/clock.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { createSocketMediaGet } from './media-get.js';

/**
 * The recordings service on a fast clock (as in `npm run demo`, where it shares the energy
 * service's demo clock): what it shows and schedules is in that clock's time; how long a download
 * may stall is still measured in real time.
 */
describe('recordings service on a fast clock', () => {
  // 1 June 2025, 09:30 UTC, an hour a second: the default 60 s stall limit is 17 ms of real time
  // on this clock, while the box below sends a chunk every 100 ms of real time.
  const clock = createDemoClock({ start: Date.UTC(2025, 5, 1, 9, 30), speed: 3600 });
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      box: { shows: [{ title: 'Slow Show', items: [{ id: '730000001', title: 'S1 E1 - Paced - Mon 02 Jun', length: 800_000, bytesPerSecond: 400_000 }] }] },
      deps: { clock, mediaGet: createSocketMediaGet() },
    });
    await h.api.post('/api/shows', { name: 'slow show', dest_folder: 'Slow Show' });
    // Once a year on 1 January: the next run is found from the clock's date (June 2025), not this computer's.
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, sync_cron: '0 3 1 1 *' });
  });
  afterAll(async () => h.cleanup());

  it('dates its runs and its schedule by its clock, and downloads a paced body without calling it stalled', async () => {
    const before = clock.now();
    const run = await h.syncAndWait();
    const after = clock.now();
    // The run's start and end are the clock's time of day (what the energy pages show in the demo).
    expect(Date.parse(run.started_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(run.started_at)).toBeLessThanOrEqual(after + 1000);
    expect(Date.parse(run.finished_at)).toBeLessThanOrEqual(after + 1000);
    // Two seconds of real transfer are over two hours on this clock: a stall timer on it would have
    // given up after 17 ms of real time.
    expect(run.status).toBe('ok');
    expect(run.summary).toMatchObject({ downloaded: 1, failed: 0 });
    const recs = (await h.api.get('/api/recordings')).body.recordings as Array<{ status: string; error: string | null }>;
    expect(recs).toEqual([expect.objectContaining({ status: 'done', error: null })]);
    // The schedule's next run: the coming 1 January from the clock's June 2025 (in the service's zone).
    const schedule = (await h.api.get('/api/sync')).body.schedule as { next_run: string };
    expect(Date.parse(schedule.next_run)).toBeGreaterThan(Date.UTC(2025, 11, 30));
    expect(Date.parse(schedule.next_run)).toBeLessThan(Date.UTC(2026, 0, 2));
    // Its pages read the same clock (ages, "this week", next runs), as the energy pages read theirs.
    const shown = (await h.api.get('/api/clock')).body as { now: number; speed: number; demo: boolean };
    expect(shown).toMatchObject({ speed: 3600, demo: true });
    expect(Math.abs(shown.now - clock.now())).toBeLessThan(3_600_000);
  });
});
