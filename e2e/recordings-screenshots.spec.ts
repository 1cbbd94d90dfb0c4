import { testDataDir } from '../main/recordings/testing/harness.js';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import type { SimShow } from '../main/recordings/box/simulator/box-model.js';
import { sampleShow } from '../main/recordings/box/simulator/sample-library.js';
import { expect, test, type RecEnv } from './recordings-fixture.js';

/**
 * Screenshots of every recordings page: desktop, phone and dark. `UPDATE_SCREENSHOTS=1` writes them to
 * docs/screenshots for the README; otherwise they go to test-results so a test run leaves the tree clean.
 */
const OUT = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '..', 'docs', 'screenshots')
  : path.resolve(import.meta.dirname, '..', 'test-results', 'screenshots');

const MB = 1024 * 1024;
function library(): SimShow[] {
  const broke = sampleShow('2 Broke Girls', 903106335, 4, (i) => (2 + i) * MB, 4);
  const gardening = sampleShow('Gardening Australia', 585587764, 3, () => 2 * MB, 33);
  gardening.items[2]!.recording = 'size-unknown';
  const chase = sampleShow('The Chase Australia', 712000100, 2, () => 3 * MB);
  chase.items[1]!.failStatus = 500;
  return [broke, gardening, chase, sampleShow('Bluey', 700000001, 2, () => MB)];
}

/**
 * One finished sync (done, skipped, failed rows, one deleted from the box), then a second one
 * downloading slowly: 3 MB at 25 kB/s, past 8 % in about 10 s and still running (about 2 min) when the
 * last variant reaches the history page.
 */
async function arrange(rec: RecEnv) {
  await rec.api.post('/api/sync');
  await rec.service.engine.current()?.done;
  const db = new Database(path.join(testDataDir(rec.dir), 'state.db'));
  db.prepare('UPDATE recordings SET purged_at = ? WHERE box_id = ?').run(Date.now() - 86_400_000, '903106335');
  db.close();
  rec.service.recordings.invalidate();
  rec.box.update('712000101', { failStatus: undefined, bytesPerSecond: 25_000 });
  await rec.api.post('/api/sync');
}

async function shoot(page: Page, file: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(OUT, file), fullPage: true });
}

const VARIANTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, dark: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, dark: false },
  { name: 'dark', viewport: { width: 1280, height: 800 }, dark: true },
] as const;

test.describe('recordings screenshots', () => {
  test.use({
    recOptions: {
      shows: library(),
      follow: [
        { name: 'broke girls', dest_folder: 'Comedy/2 Broke Girls' },
        { name: 'gardening', dest_folder: 'Gardening Australia', season_template: 'S{season_unpadded}' },
        { name: 'the chase', dest_folder: 'Quiz/The Chase', season_template: '' },
      ],
    },
  });

  // One service, one arranged state and one slow download for all three variants: the pages only read
  // (the shows page's follow form is never sent), so each variant sees the same state. Arranging it
  // once per variant, and waiting each time for the bar to pass 8 %, was most of this file's time.
  test('every recordings page (desktop, phone, dark)', async ({ page, rec }) => {
    test.setTimeout(300_000);
    await arrange(rec);
    for (const v of VARIANTS) {
      await test.step(v.name, async () => {
        await page.setViewportSize(v.viewport);
        await page.emulateMedia({ colorScheme: v.dark ? 'dark' : 'light' });

        await page.goto('/');
        await expect(page.getByTestId('sync-deck')).toContainText('Syncing', { timeout: 20_000 });
        await expect(page.getByTestId('recent-syncs')).toContainText('#1');
        await expect(page.getByTestId('tile-box')).toContainText('Living Room Fetch Box');
        await shoot(page, `recordings-overview-${v.name}.png`);

        // The pages that do not need the download's progress first: the bar grows meanwhile.
        await page.goto('/shows');
        await page.getByRole('button', { name: 'Load shows from the box' }).click();
        await expect(page.getByTestId('box-shows')).toContainText('Bluey');
        await page.getByRole('button', { name: 'Follow Bluey' }).click();
        await page.getByLabel('Destination folder').fill('Kids/Bluey');
        await expect(page.getByTestId('path-preview')).toContainText('Kids/Bluey/Season 01/Bluey - S01E02');
        await shoot(page, `recordings-shows-${v.name}.png`);

        await page.goto('/settings#schedule');
        await expect(page.getByTestId('cron-preview')).toContainText('every 30 minutes');
        await shoot(page, `recordings-settings-${v.name}.png`);

        await page.goto('/setup');
        await expect(page.getByRole('group', { name: 'Found one box' })).toBeVisible({ timeout: 15_000 });
        await shoot(page, `recordings-setup-${v.name}.png`);

        await page.goto('/recordings');
        await expect(page.getByRole('progressbar').first()).toBeVisible({ timeout: 20_000 });
        await expect.poll(async () => Number(await page.getByRole('progressbar').first().getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(8);
        await expect(page.locator('.rec-row[data-status="skipped"]')).toHaveCount(1);
        await shoot(page, `recordings-list-${v.name}.png`);

        await page.goto('/history');
        await expect(page.getByTestId('runs').locator('tr')).toHaveCount(3);
        await expect(page.getByTestId('sync-live').getByRole('progressbar')).toBeVisible();
        await shoot(page, `recordings-history-${v.name}.png`);
      });
    }
  });
});
