import fs from 'node:fs';
import type { Response } from '@playwright/test';
import { sampleShow } from '../main/recordings/box/simulator/sample-library.js';
import { expect, test } from './recordings-fixture.js';

/** Shows, CSRF handling, setup and sync history against the real service and box simulators on loopback. */

test.describe('shows page', () => {
  test.use({ recOptions: { shows: [sampleShow('2 Broke Girls', 903106335, 2, () => 20_000), sampleShow('Gardening Australia', 585587764, 1, () => 20_000)] } });

  test('previews the destination live and refuses a traversal with the server message', async ({ page, rec }) => {
    await page.goto('/shows');
    await page.getByLabel('Show name').fill('Broke Girls');
    await page.getByLabel('Destination folder').fill('Comedy/2 Broke Girls');
    await page.getByLabel('Season folder').fill('S{season_unpadded}');
    await expect(page.getByTestId('path-preview')).toHaveText(`${rec.mediaRoot}/Comedy/2 Broke Girls/S1/Broke Girls - S01E02 - Episode title.ts`);

    await page.getByLabel('Destination folder').fill('../../etc');
    await page.getByRole('button', { name: 'Follow show' }).click();
    const field = page.getByRole('alert').filter({ hasText: 'Folder name' });
    await expect(field).toHaveText('Folder name: must not contain ".." segments');
    await expect(page.getByLabel('Destination folder')).toHaveAttribute('aria-invalid', 'true');
    expect((await rec.api.get('/api/shows')).body.shows).toEqual([]);

    // Fixed: saved, listed, the form cleared.
    await page.getByLabel('Destination folder').fill('Comedy/2 Broke Girls');
    await page.getByRole('button', { name: 'Follow show' }).click();
    await expect(page.getByTestId('followed-shows')).toContainText('Broke Girls');
    // Nothing downloaded yet: the season number is a placeholder, not a made-up "1".
    await expect(page.getByTestId('followed-shows')).toContainText('Comedy/2 Broke Girls/SN');
    expect((await rec.api.get('/api/shows')).body.shows).toMatchObject([{ name: 'Broke Girls', dest_folder: 'Comedy/2 Broke Girls', season_template: 'S{season_unpadded}' }]);
  });

  test('follows a show picked from the box list', async ({ page, rec }) => {
    await page.goto('/shows');
    await page.getByRole('button', { name: 'Load shows from the box' }).click();
    await expect(page.getByTestId('box-shows')).toContainText('Gardening Australia');
    await page.getByRole('button', { name: 'Follow Gardening Australia' }).click();
    await expect(page.getByLabel('Show name')).toHaveValue('Gardening Australia');
    await page.getByRole('button', { name: 'Follow show' }).click();
    await expect(page.getByTestId('followed-shows')).toContainText('Gardening Australia');
    expect((await rec.api.get('/api/shows')).body.shows[0]).toMatchObject({ name: 'Gardening Australia', dest_folder: 'Gardening Australia', enabled: true });
  });

  test('offers the four ad modes, each explained, and Mark with its chapters option (issue 45)', async ({ page, rec }) => {
    await page.goto('/shows');
    const mode = page.getByLabel('Ad removal');
    await expect(mode.locator('option')).toHaveText(['Off', 'Detect breaks', 'Mark breaks', 'Cut breaks out']);
    await expect(page.getByText('New recordings are not scanned for ads.')).toBeVisible();
    await expect(page.getByLabel('Chapters (Mark mode)')).toHaveCount(0);
    await mode.selectOption('mark');
    await expect(page.getByText(/An EDL file beside the recording lets Kodi/)).toBeVisible();
    const chapters = page.getByLabel('Chapters (Mark mode)');
    await expect(chapters.locator('option')).toHaveText(['EDL file only', 'Chaptered copy beside the recording', 'Chaptered copy in place of the recording']);
    await chapters.selectOption('beside');
    await expect(page.getByText(/Also a \.mkv copy with "Programme" and "Commercial" chapters/)).toBeVisible();
    await chapters.selectOption('in_place');
    await expect(page.getByText(/takes the recording’s place in the library, so each episode is listed once/)).toBeVisible();
    await mode.selectOption('cut');
    await expect(page.getByText('The breaks are removed from the recording; the uncut copy is kept for a while.')).toBeVisible();
    await mode.selectOption('mark');
    await page.getByLabel('Show name').fill('Gardening Australia');
    await page.getByLabel('Destination folder').fill('Gardening Australia');
    await page.getByRole('button', { name: 'Follow show' }).click();
    await expect(page.getByTestId('followed-shows')).toContainText('Gardening Australia');
    expect((await rec.api.get('/api/shows')).body.shows[0]).toMatchObject({ name: 'Gardening Australia', ad_mode: 'mark', mark_chapters: 'in_place', mark_counts_as_cut: false });
  });
});

test.describe('CSRF', () => {
  test.use({ recOptions: { shows: [], follow: [{ name: 'Broke Girls', dest_folder: 'Comedy' }] } });

  test('a change after a secret rotation gets a 403, fetches a new token and succeeds on the retry', async ({ page, rec }) => {
    const changes: Array<{ method: string; path: string; status: number }> = [];
    page.on('response', (res: Response) => {
      const req = res.request();
      const path = new URL(res.url()).pathname;
      if (req.method() !== 'GET' || path === '/api/csrf-token') changes.push({ method: req.method(), path, status: res.status() });
    });
    await page.goto('/shows');
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Paused “Broke Girls”' })).toBeVisible();
    expect(changes.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual(['GET /api/csrf-token 200', 'PATCH /api/shows/1 200']);

    await rec.rotateSecret();
    changes.length = 0;
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Resumed “Broke Girls”' })).toBeVisible();
    expect(changes.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual(['PATCH /api/shows/1 403', 'GET /api/csrf-token 200', 'PATCH /api/shows/1 200']);
    expect((await rec.api.get('/api/shows')).body.shows[0].enabled).toBe(true);
  });
});

test.describe('first-run setup', () => {
  test.use({
    recOptions: {
      shows: [sampleShow('2 Broke Girls', 903106335, 1, () => 20_000)],
      secondBox: [sampleShow('Bluey', 700000001, 1, () => 20_000)],
      configured: false,
    },
  });

  test('finds two boxes on the simulated LAN and saves the one picked', async ({ page, rec }) => {
    await page.goto('/');
    await expect(page.getByTestId('first-run')).toContainText('No recording box is set up yet');
    await page.getByTestId('first-run').getByRole('link').click();
    await expect(page).toHaveURL(/\/setup$/);
    const picker = page.getByRole('group', { name: 'Found 2 boxes: pick yours' });
    await expect(picker).toBeVisible({ timeout: 15_000 });
    await expect(picker.getByRole('radio')).toHaveCount(2);
    await picker.getByRole('radio', { name: /Bedroom Fetch Box/ }).check();
    await picker.getByRole('button', { name: 'Use this box' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Using Bedroom Fetch Box' })).toBeVisible();
    // The box by its own name (from its description), not its description URL.
    await expect(page.getByTestId('current-box')).toContainText('Bedroom Fetch Box');
    await expect(page.getByTestId('current-box')).not.toContainText('/MediaServer.xml');
    expect((await rec.api.get('/api/settings')).body.settings.box_address).toBe(rec.box2!.descriptionUrl);

    // The next steps: a media folder the server refuses, then one it takes; the schedule preview.
    await page.getByRole('button', { name: 'Next: Media folder' }).click();
    await page.getByLabel('Media folder').fill('relative/path');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Media folder:' })).toContainText('absolute path');
    // A folder that does not exist is refused too (a sync never creates the media root).
    await page.getByLabel('Media folder').fill(`${rec.dir}/library`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Media folder:' })).toContainText('does not exist');
    fs.mkdirSync(`${rec.dir}/library`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect((await rec.api.get('/api/settings')).body.settings.media_root).toBe(`${rec.dir}/library`);
    await page.getByRole('button', { name: 'Next: Schedule' }).click();
    await page.getByLabel('Sync schedule', { exact: true }).fill('15 3 * * *');
    await expect(page.getByTestId('cron-preview')).toContainText('Runs every day at 03:15. Next runs (Australia/Sydney)');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect((await rec.api.get('/api/sync')).body.schedule.cron).toBe('15 3 * * *');
  });
});

test.describe('sync history', () => {
  test.use({ recOptions: { shows: [sampleShow('2 Broke Girls', 903106335, 2, () => 20_000)], follow: [{ name: 'broke', dest_folder: 'Comedy' }] } });

  test('Sync now adds a run that finishes ok with its counters', async ({ page }) => {
    await page.goto('/history');
    await expect(page.getByText('No sync has run yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Sync now' }).click();
    const row = page.getByTestId('runs').locator('tr[data-run-id="1"]');
    await expect(row).toContainText('ok', { timeout: 20_000 });
    await expect(row.locator('td').nth(5)).toHaveText('2');
    await expect(row.locator('td').nth(6)).toHaveText('0');
    await expect(row).toContainText('Sync now');
  });
});
