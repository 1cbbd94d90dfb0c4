import path from 'node:path';
import Database from 'better-sqlite3';
import type { Request } from '@playwright/test';
import { createRecordingsStore } from '../main/recordings/store/recordings-store.js';
import { testDataDir } from '../main/recordings/testing/harness.js';
import { expect, slowShow, test } from './recordings-fixture.js';

/**
 * The Recordings page against the real service and the box simulator on loopback: a sync started
 * from the page, live progress, outcomes, the polling cadence seen on the network, and 10,000 rows.
 */
const library = () => {
  const slow = slowShow('Slow Show', 111111110, 2, 5);
  // Still recording: the box lists its size as -1.
  slow.items.push({ id: '111111119', title: 'S1 E9 - Tonight - Sun 09 Jul', length: 1_000_000, recording: 'size-unknown' });
  return [slow];
};

test.describe('recordings page', () => {
  test.use({ recOptions: { shows: library(), follow: [{ name: 'slow show', dest_folder: 'Slow Show' }] } });

  test('a sync started from the page shows bars that move, rows end done, a recording item is skipped with its reason', async ({ page, rec }) => {
    test.setTimeout(120_000);
    // Each episode in about 3 s (2 MB at 700 kB/s), not 5: time to see a bar move, not to wait for it.
    for (const id of ['111111110', '111111111']) rec.box.update(id, { bytesPerSecond: 700_000 });
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    const res = await page.goto('/recordings');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self' 'unsafe-eval'");
    await expect(page.getByRole('heading', { name: 'Recordings' })).toBeVisible();
    await expect(page.getByTestId('poll-status')).toContainText('0 recordings');
    await page.getByRole('button', { name: 'Sync now' }).click();

    // A live row says "downloading" (never "partial") and its bar moves.
    const bar = page.getByRole('progressbar').first();
    await expect(bar).toBeVisible({ timeout: 20_000 });
    const downloading = page.locator('.rec-row[data-status="downloading"]');
    await expect(downloading).toHaveCount(1);
    await expect(page.locator('.rec-row[data-status="partial"]')).toHaveCount(0);
    await expect(bar).toHaveAttribute('aria-valuetext', /Downloading · \d+% · .*B\/s · ETA/);
    // Follow that one row: its bar moves on (or it finishes, which ends its bar at 100 %).
    const liveId = (await downloading.getAttribute('data-box-id'))!;
    const liveRow = page.locator(`.rec-row[data-box-id="${liveId}"]`);
    const first = Number(await liveRow.getByRole('progressbar').getAttribute('aria-valuenow'));
    const progressOf = async () => {
      if ((await liveRow.getAttribute('data-status')) === 'done') return 100;
      return Number((await liveRow.getByRole('progressbar').getAttribute('aria-valuenow', { timeout: 1_000 }).catch(() => null)) ?? first);
    };
    await expect.poll(progressOf, { timeout: 20_000 }).toBeGreaterThan(first);

    for (const id of ['111111110', '111111111']) {
      const row = page.locator(`.rec-row[data-box-id="${id}"]`);
      await expect(row).toHaveAttribute('data-status', 'done', { timeout: 45_000 });
      await expect(row.getByTestId('status')).toHaveText('done');
      await expect(row).toContainText('2.1 MB');
    }
    const recording = page.locator('.rec-row[data-box-id="111111119"]');
    await expect(recording).toHaveAttribute('data-status', 'skipped');
    await expect(recording.getByTestId('error')).toHaveText('currently recording');
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    // Ad removal is wired in (capabilities.ad_scan): each downloaded row offers a re-scan, the skipped one none.
    await expect(page.getByRole('button', { name: /Re-scan/ })).toHaveCount(2);
    await expect(recording.getByRole('button', { name: /Re-scan/ })).toHaveCount(0);
    // Filters: status and search.
    await page.getByLabel('Status').selectOption('skipped');
    await expect(page.locator('.rec-row')).toHaveCount(1);
    await page.getByLabel('Status').selectOption('all');
    await page.getByLabel('Search').fill('episode 2');
    await expect(page.locator('.rec-row')).toHaveCount(1);
    await expect(page.locator('.rec-row')).toHaveAttribute('data-box-id', '111111111');
    // The page works under the service's strict CSP: no violation, no script error.
    expect(problems).toEqual([]);
  });

  test('without the event stream (a plain client): polls every 60 s when idle and every 2 s while a sync is live (seen on the network)', async ({ page }) => {
    test.setTimeout(120_000);
    // The progress stream refused, as by a proxy that does not pass it: the page falls back to the spec's cadence.
    await page.route('**/api/progress/events', (route) => route.abort());
    // The page's fake clock runs in real time, and is paused where the test needs to know what did
    // not happen: each call the page makes for the list is logged with its (fake) time as it is
    // made, so "no poll before 60 s" is read from the log right after the clock is moved, not
    // after a wait in real time.
    await page.addInitScript(() => {
      const calls: number[] = [];
      (window as unknown as { recordingsPolls: number[] }).recordingsPolls = calls;
      const realFetch = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (url.pathname === '/api/recordings') calls.push(Date.now());
        return realFetch(input, init);
      };
    });
    await page.clock.install();
    const polls: number[] = [];
    const pollRequests: Request[] = [];
    page.on('request', (req: Request) => {
      if (new URL(req.url()).pathname !== '/api/recordings') return;
      polls.push(Date.now());
      pollRequests.push(req);
    });
    const pageCalls = () => page.evaluate(() => [...(window as unknown as { recordingsPolls: number[] }).recordingsPolls]);
    const pageNow = () => page.evaluate(() => Date.now());
    /** Pauses the page clock, then checks the next poll comes 60 s after the last one, not before. */
    const nextPollAfterAMinute = async () => {
      // A little ahead of the page clock, which runs on while this call travels.
      await page.clock.pauseAt((await pageNow()) + 2_000);
      const before = await pageCalls();
      const last = before.at(-1)!;
      // Up to 59 s after the last poll: nothing more is sent.
      await page.clock.runFor(Math.max(0, last + 59_000 - (await pageNow())));
      expect(await pageCalls()).toEqual(before);
      // Then one poll, a minute after the last (its timer starts when the answer arrived).
      for (let i = 0; i < 30 && (await pageCalls()).length === before.length; i++) await page.clock.runFor(1_000);
      const after = await pageCalls();
      expect(after).toHaveLength(before.length + 1);
      expect(after.at(-1)! - last).toBeGreaterThanOrEqual(60_000);
      expect(after.at(-1)! - last).toBeLessThan(75_000);
      await page.clock.resume();
    };

    await page.goto('/recordings');
    await expect(page.getByTestId('poll-status')).toHaveAttribute('data-poll-ms', '60000');
    // The load's own request, one.
    expect(await pageCalls()).toHaveLength(1);
    // Idle: one poll a minute.
    await nextPollAfterAMinute();
    await expect.poll(() => polls.length).toBe(2);

    // Live: a sync from the page; polls every 2 s while rows have progress.
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByRole('progressbar').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('poll-status')).toHaveAttribute('data-poll-ms', '2000');
    const from = polls.length;
    await expect.poll(() => polls.length - from, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    // Gaps by the browser's own send times: this worker also runs the service, so while a sync is
    // live its 'request' events can reach the test late and make a gap look shorter than it was.
    const live = await Promise.all(
      pollRequests.slice(from).map(async (req) => {
        await req.response();
        return req.timing().startTime;
      }),
    );
    for (let i = 1; i < live.length; i++) {
      const gap = live[i]! - live[i - 1]!;
      expect(gap).toBeGreaterThanOrEqual(1_900);
      expect(gap).toBeLessThan(15_000);
    }

    // Done: back to 60 s, and quiet again until a minute has passed.
    await expect(page.locator('.rec-row[data-status="done"]')).toHaveCount(2, { timeout: 45_000 });
    await expect(page.getByTestId('poll-status')).toHaveAttribute('data-poll-ms', '60000', { timeout: 10_000 });
    await nextPollAfterAMinute();
  });

  test('with the event stream: one list read on load, bars move from the events, the list is read again only when a row changes, never on a 2 s timer', async ({ page }) => {
    test.setTimeout(120_000);
    // The page's own log, by its (fake) clock: each list read, and each progress event that says a
    // stored row changed or a sync started or ended (the page's cue to read the list).
    await page.addInitScript(() => {
      const log = { reads: [] as number[], changes: [] as number[] };
      (window as unknown as { streamLog: typeof log }).streamLog = log;
      const realFetch = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (url.pathname === '/api/recordings') log.reads.push(Date.now());
        return realFetch(input, init);
      };
      const RealEventSource = window.EventSource;
      window.EventSource = class extends RealEventSource {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          let last: string | null = null;
          this.addEventListener('message', (e: MessageEvent<string>) => {
            const v = JSON.parse(e.data) as { version: number; sync_running: number | null };
            const key = `${v.version}|${v.sync_running}`;
            if (key !== last) log.changes.push(Date.now());
            last = key;
          });
          this.addEventListener('error', () => (last = null));
        }
      };
    });
    await page.clock.install();
    const streamLog = () => page.evaluate(() => structuredClone((window as unknown as { streamLog: { reads: number[]; changes: number[] } }).streamLog));
    const pageNow = () => page.evaluate(() => Date.now());
    await page.goto('/recordings');
    await expect(page.getByTestId('poll-status')).toContainText('0 recordings');
    // One read on load: after the stream's first event, not before it as well.
    await expect.poll(async () => (await streamLog()).changes.length).toBe(1);
    expect((await streamLog()).reads).toHaveLength(1);

    await page.getByRole('button', { name: 'Sync now' }).click();
    const bar = page.getByRole('progressbar').first();
    await expect(bar).toBeVisible({ timeout: 20_000 });
    // Live, the page keeps the idle cadence: progress comes from the events.
    await expect(page.getByTestId('poll-status')).toHaveAttribute('data-poll-ms', '60000');
    const valueNow = async () => Number((await bar.getAttribute('aria-valuenow', { timeout: 1_000 }).catch(() => null)) ?? 100);
    const first = await valueNow();
    await expect.poll(valueNow).toBeGreaterThan(first);
    // Ten seconds of the page's timers: the old 2 s poll read the list in them; now only a change does.
    await page.clock.pauseAt((await pageNow()) + 2_000);
    const before = await streamLog();
    await page.clock.runFor(10_000);
    const after = await streamLog();
    expect(after.reads.length - before.reads.length).toBeLessThanOrEqual(after.changes.length - before.changes.length);
    await page.clock.resume();
    // The sync ends with both rows done (read on the change that stored them), no bar left.
    await expect(page.locator('.rec-row[data-status="done"]')).toHaveCount(2, { timeout: 45_000 });
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    const end = await streamLog();
    expect(end.reads.length).toBeLessThanOrEqual(end.changes.length);
  });
});

test.describe('recordings page with 10,000 rows', () => {
  test.use({ recOptions: { shows: [] } });

  test('renders only the rows in view and scrolls to the last one', async ({ page, rec }) => {
    // Written through the store's own upsert on a second connection, in one transaction (10,000
    // single-row commits took most of a minute on a busy machine); the service then re-reads.
    const now = Date.now();
    const db = new Database(path.join(testDataDir(rec.dir), 'state.db'));
    const store = createRecordingsStore(db);
    db.transaction(() => {
      for (let i = 0; i < 10_000; i++) {
        store.writeOutcome(
          {
            box_id: String(500_000_000 + i),
            show_id: null,
            box_udn: 'uuid:fetch-box-sim-0001',
            show_title: `Show ${i % 40}`,
            box_title: `S1 E${(i % 20) + 1} - Episode number ${i}`,
            season: 1,
            episode: (i % 20) + 1,
            status: 'done',
            error: null,
            expected_size: 1_000_000 + i,
            size: 1_000_000 + i,
            file_path: `/media/tv/show-${i}.ts`,
            downloaded_at: now - i * 60_000,
          },
          now,
        );
      }
    })();
    db.close();
    rec.service.recordings.invalidate();
    await page.goto('/recordings');
    const table = page.getByTestId('recordings-table');
    await expect(table).toHaveAttribute('aria-rowcount', '10001');
    await expect(page.getByTestId('poll-status')).toContainText('10,000 recordings');
    const rendered = await page.locator('.rec-row').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(60);
    await expect(page.locator('.rec-row').first()).toContainText('Episode number 0');

    await page.locator('.vscroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(page.locator('.rec-row[data-box-id="500009999"]')).toBeVisible();
    expect(await page.locator('.rec-row').count()).toBeLessThan(60);

    await page.getByLabel('Search').fill('episode number 4242');
    await expect(page.locator('.rec-row')).toHaveCount(1);
    await expect(page.locator('.rec-row')).toHaveAttribute('data-box-id', '500004242');
  });
});
