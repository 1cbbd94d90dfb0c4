import { testDataDir } from '../main/recordings/testing/harness.js';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sampleShow } from '../main/recordings/box/simulator/sample-library.js';
import { createFakeEmbyServer } from '../main/recordings/mediaserver/fake-emby-server.js';
import { expect, slowShow, test } from './recordings-fixture.js';

/** The Overview page, the header's status and clock, and the small recordings fixes, against the real service and box simulator. */

test.describe('overview', () => {
  test.use({
    recOptions: {
      shows: [slowShow('Slow Show', 800000001, 2, 3), sampleShow('Gardening Australia', 585587764, 2, () => 20_000, 4)],
      follow: [
        { name: 'slow show', dest_folder: 'Slow Show' },
        { name: 'gardening', dest_folder: 'Gardening Australia' },
      ],
    },
  });

  test('is the first page: deck idle → syncing → idle with counts, tiles, recent syncs; the header says it too', async ({ page, rec }) => {
    test.setTimeout(90_000);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    const deck = page.getByTestId('sync-deck');
    await expect(deck.getByRole('heading', { name: 'Idle' })).toBeVisible();
    await expect(deck).toContainText('No sync has run yet.');
    await expect(deck).toContainText('Next scheduled sync');
    const chip = page.getByTestId('header-sync-status');
    await expect(chip).toHaveText('Idle');
    // The clock in the service's time zone (the test service runs in Australia/Sydney).
    const clock = page.getByTestId('header-clock');
    await expect(clock).toContainText('Australia/Sydney');
    const sydney = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'Australia/Sydney' }).format(new Date());
    await expect(clock).toContainText(sydney.replace(/\s?[AP]M$/i, ''));
    await expect(page.getByTestId('tile-shows')).toContainText('2');
    await expect(page.getByTestId('tile-shows')).toContainText('all active');
    await expect(page.getByTestId('tile-week')).toContainText('nothing downloaded in the last 7 days');
    await expect(page.getByTestId('tile-box')).toContainText('connected');
    await expect(page.getByTestId('tile-box')).toContainText('Living Room Fetch Box');
    await expect(page.getByTestId('tile-media')).toContainText('not set up');
    await expect(page.getByTestId('tile-cloud')).toContainText('not set up');

    await deck.getByRole('button', { name: 'Sync now' }).click();
    await expect(deck.getByRole('heading', { name: /Syncing · run #1/ })).toBeVisible();
    await expect(chip).toHaveText('Syncing · #1');
    await expect(deck.getByRole('progressbar').first()).toBeVisible({ timeout: 20_000 });
    await rec.service.engine.current()?.done;
    await expect(deck.getByRole('heading', { name: 'Idle' })).toBeVisible({ timeout: 10_000 });
    await expect(chip).toHaveText('Idle');
    await expect(page.getByTestId('last-sync')).toContainText('Last sync #1');
    await expect(page.getByTestId('last-sync')).toContainText('4 downloaded');
    await expect(page.getByTestId('tile-week')).toContainText('4');
    await expect(page.getByTestId('recent-syncs').locator('li')).toHaveCount(1);
    await expect(page.getByTestId('recent-syncs')).toContainText('Sync now');

    // The header is on every page, and a sync started elsewhere shows there as well.
    await page.getByRole('link', { name: 'Shows', exact: true }).click();
    await expect(chip).toHaveText('Idle');
    // Followed shows name the season folder their files went to (Season 04), not Season 01.
    await expect(page.locator('[data-show-id="2"]')).toContainText('Gardening Australia/Season 04');
    await expect(page.locator('[data-show-id="2"]')).not.toContainText('Season 01');
  });
});

// Only the rows it needs: the slow show above would add its download pace to this test for nothing.
test.describe('ad scan in the list', () => {
  test.use({ recOptions: { shows: [sampleShow('Gardening Australia', 585587764, 2, () => 20_000, 4)], follow: [{ name: 'gardening', dest_folder: 'Gardening Australia' }] } });

  test('a failed ad scan says why in the list', async ({ page, rec }) => {
    await rec.api.post('/api/sync');
    await rec.service.engine.current()?.done;
    const db = new Database(path.join(testDataDir(rec.dir), 'state.db'));
    db.prepare(`UPDATE recordings SET ad_status = 'detect_failed', ad_error = ? WHERE box_id = ?`).run('the detector did not finish within 3600 s', '585587764');
    db.close();
    rec.service.recordings.invalidate();
    await page.goto('/recordings');
    const row = page.locator('[data-box-id="585587764"]');
    await expect(row).toContainText('scan failed');
    await expect(row.getByTestId('ad-error')).toHaveText('the detector did not finish within 3600 s');
  });
});

test.describe('overview: progress from the service\'s events', () => {
  test.use({ recOptions: { shows: [slowShow('Slow Show', 810000001, 1, 30)], follow: [{ name: 'slow show', dest_folder: 'Slow Show' }] } });

  test('a download moves its bar from the event stream: the list is not read again while it runs', async ({ page }) => {
    test.setTimeout(60_000);
    // The page's own log of list reads, by the page clock, so "none" is read right after the clock is moved.
    await page.addInitScript(() => {
      const calls: number[] = [];
      (window as unknown as { listReads: number[] }).listReads = calls;
      const realFetch = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (url.pathname === '/api/recordings') calls.push(Date.now());
        return realFetch(input, init);
      };
    });
    await page.clock.install();
    const listReads = () => page.evaluate(() => [...(window as unknown as { listReads: number[] }).listReads]);
    const pageNow = () => page.evaluate(() => Date.now());
    await page.goto('/');
    const deck = page.getByTestId('sync-deck');
    await deck.getByRole('button', { name: 'Sync now' }).click();
    const bar = deck.getByRole('progressbar').first();
    await expect(bar).toBeVisible({ timeout: 20_000 });
    const valueNow = async () => Number(await bar.getAttribute('aria-valuenow'));
    // The bar moved on an event: the reads the sync's start and its new row asked for are behind us.
    const first = await valueNow();
    await expect.poll(valueNow).toBeGreaterThan(first);
    await page.clock.pauseAt((await pageNow()) + 2_000);
    const before = await listReads();
    // Ten seconds of the page's timers: the old 2 s poll read the list again in them.
    await page.clock.runFor(10_000);
    expect(await listReads()).toEqual(before);
    await page.clock.resume();
    // The bar goes on moving, from the events alone.
    const at = await valueNow();
    await expect.poll(valueNow).toBeGreaterThan(at);
    expect(await listReads()).toEqual(before);
  });
});

test.describe('unknown paths', () => {
  test.use({ recOptions: { shows: [] } });

  test('a browser gets a friendly page with a way home; the API keeps its JSON 404', async ({ page, request }) => {
    const res = await page.goto('/no/such/page');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('/no/such/page')).toBeVisible();
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    const api = await request.get('/api/nope');
    expect(api.status()).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

test.describe('settings: storage test and reset', () => {
  test.use({ recOptions: { shows: [sampleShow('Bluey', 700000001, 1, () => 20_000)], follow: [{ name: 'bluey', dest_folder: 'Kids/Bluey' }] } });

  test('tests the media folder typed in the box: ready, then a missing one', async ({ page, rec }) => {
    await page.goto('/settings#library');
    const card = page.getByTestId('settings-library');
    await card.getByRole('button', { name: 'Test this folder' }).click();
    await expect(card.getByTestId('storage-message')).toHaveText(new RegExp(`^${rec.mediaRoot.replace(/[/.]/g, '\\$&')} is ready: writable, .+ free\\.$`));
    await expect(card.getByRole('status')).toContainText('Writableyes');
    await card.getByLabel('Media folder').fill(path.join(rec.dir, 'not-there'));
    await card.getByRole('button', { name: 'Test this folder' }).click();
    await expect(card.getByTestId('storage-message')).toContainText('does not exist. Create the folder first.');
    await expect(card.getByRole('status')).toContainText('Existsno');
  });

  test('reset sits in a danger zone behind a typed confirmation and clears what it says', async ({ page, rec }) => {
    await rec.api.post('/api/sync');
    await rec.service.engine.current()?.done;
    // Following the show may have started a run of its own besides this one: the page must say
    // exactly what there was to clear, however many runs that is.
    const runs: number = (await rec.api.get('/api/sync-runs')).body.runs.length;
    const media = fs.readdirSync(rec.mediaRoot, { recursive: true });
    await page.goto('/settings');
    const zone = page.getByTestId('danger-zone');
    await zone.getByRole('button', { name: 'Reset the recording sync…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the recording sync?' });
    const confirm = dialog.getByRole('button', { name: 'Reset everything' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Type RESET to confirm').fill('reset');
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Type RESET to confirm').fill('RESET');
    await confirm.click();
    await expect(zone.getByRole('status')).toContainText(`Cleared 1 followed show, 1 recording from the list and ${runs} sync run${runs === 1 ? '' : 's'};`);
    expect((await rec.api.get('/api/sync-runs')).body.runs).toEqual([]);
    expect((await rec.api.get('/api/shows')).body.shows).toEqual([]);
    expect((await rec.api.get('/api/recordings')).body.recordings).toEqual([]);
    expect(fs.readdirSync(rec.mediaRoot, { recursive: true })).toEqual(media);
  });
});

test.describe('phone recordings list', () => {
  const many = sampleShow('Gardening Australia with a long name that wraps', 585587764, 30, () => 20_000, 4);
  test.use({ recOptions: { shows: [many], follow: [{ name: 'gardening', dest_folder: 'Gardening' }] }, viewport: { width: 390, height: 844 } });

  test('filters fold into a panel, the page itself scrolls, nothing is cut off', async ({ page, rec }) => {
    await rec.api.post('/api/sync');
    await rec.service.engine.current()?.done;
    await page.goto('/recordings');
    await expect(page.getByTestId('poll-status')).toContainText('30 recordings');
    // Search stays; the selects wait behind one button.
    await expect(page.getByLabel('Search')).toBeVisible();
    await expect(page.getByLabel('Status')).toBeHidden();
    const toggle = page.getByRole('button', { name: /^Filters/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.getByLabel('Status').selectOption('failed');
    await expect(toggle).toHaveText(/Filters · 1 on/);
    await expect(page.getByText('No recording matches these filters.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.locator('.rec-row').first()).toBeVisible();

    // No scroll box inside the page: the document is taller than the screen and scrolling it reaches the last row.
    const scrollBoxes = await page.locator('.vscroll').evaluateAll((els) => els.filter((e) => getComputedStyle(e).overflowY === 'auto' || getComputedStyle(e).overflowY === 'scroll').length);
    expect(scrollBoxes).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(30 * 150);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.locator('[data-box-id="585587764"]')).toBeVisible();
    // Nothing wider than the screen, and no text cut off inside a row (titles and badges wrap).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const cut = await page.locator('.rec-row .rec-show, .rec-row .pill, .rec-row .small-button').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    expect(cut).toEqual([]);
  });
});

test.describe('overview: the media server tile names the library', () => {
  test.use({ recOptions: { shows: [] } });

  test('shows the saved library by the name the server gives it, not its id (issue 45)', async ({ page, rec }) => {
    const key = '0123456789abcdef0123456789abcdef';
    const libraryId = '767bffe4f11c93ef34b805451a696a4e';
    const jellyfin = createFakeEmbyServer({ kind: 'jellyfin', apiKey: key, name: 'Lounge Jellyfin', libraries: [{ id: libraryId, name: 'Recorded TV', collectionType: 'tvshows', locations: [] }] });
    await jellyfin.start();
    try {
      const saved = await rec.api.patch('/api/settings', { media_server_kind: 'jellyfin', media_server_url: jellyfin.url, media_server_token: key, media_server_section_id: libraryId });
      expect(saved.status).toBe(200);
      await page.goto('/');
      const tile = page.getByTestId('tile-media');
      await expect(tile.getByTestId('media-state')).toHaveText('connected');
      await expect(tile.getByTestId('media-library')).toHaveText(' · library "Recorded TV"');
      await expect(tile).not.toContainText(libraryId);
    } finally {
      await jellyfin.stop();
    }
  });
});
