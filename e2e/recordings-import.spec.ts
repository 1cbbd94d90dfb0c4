import fs from 'node:fs';
import type { SimShow } from '../main/recordings/box/simulator/box-model.js';
import { copyFixture, fixtureAvailable, FETCHARR_FIXTURE, readFacts } from '../main/recordings/import/testing.js';
import { expect, test } from './recordings-fixture.js';

/** The first-run wizard's "Coming from fetcharr?" path, from the folder to the recordings list, on a copy of the real fetcharr folder. */

const box = (): SimShow[] => {
  if (!fixtureAvailable()) return [];
  const facts = readFacts();
  const items = (showId: number) => facts.recordings.filter((r) => r.show_id === showId).map((r) => ({ id: r.fetch_id, title: r.fetch_title, length: r.size }));
  return [
    { title: 'Garden Makeover', items: items(1) },
    { title: 'Quiz Night', items: items(2) },
  ];
};

test.describe('setup: coming from fetcharr', () => {
  test.use({ recOptions: { shows: box(), configured: false } });

  test('previews the folder (counts, shows, settings, what is not carried) then imports and lands on the recordings list', async ({ page, rec }) => {
    test.skip(!fixtureAvailable(), `the fetcharr anchor fixture is not at ${FETCHARR_FIXTURE} (set FETCHARR_FIXTURE)`);
    const copy = copyFixture();
    try {
      await page.goto('/');
      await page.getByTestId('first-run').getByRole('link').click();
      await page.getByRole('button', { name: 'Import from fetcharr' }).click();

      // A folder that is not fetcharr's: refused beside the field.
      await page.getByLabel('fetcharr config folder').fill(copy.media);
      await page.getByLabel('Media root now').fill(copy.media);
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'not a fetcharr config folder' })).toBeVisible();
      await expect(page.getByLabel('fetcharr config folder')).toHaveAttribute('aria-invalid', 'true');

      await page.getByLabel('fetcharr config folder').fill(copy.config);
      await expect(page.getByLabel('Media root then')).toHaveValue('/media');
      await page.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByTestId('fetcharr-preview');
      await expect(preview.getByTestId('fetcharr-counts')).toContainText(`4 downloaded recordings (4 files found under ${copy.media})`);
      await expect(preview.getByTestId('fetcharr-counts')).toContainText('1 that did not download');
      const shows = preview.getByTestId('fetcharr-shows');
      await expect(shows.getByRole('row', { name: /Garden Makeover/ })).toContainText('Season {season}onafter downloaddetect breaks');
      await expect(shows.getByRole('row', { name: /Quiz Night/ })).toContainText('Quiz Night (2019)Season {season_unpadded}onnooff');
      await expect(preview.getByTestId('fetcharr-settings')).toContainText('box_address = 127.0.0.1:18402');
      await expect(preview.getByTestId('fetcharr-settings')).toContainText('media_server_token = ••••••••');
      await expect(preview.getByTestId('fetcharr-settings')).not.toContainText('fxPlexToken');
      await expect(preview.getByTestId('fetcharr-not-carried')).toContainText("the vendor cloud's addresses: fetcharr has them built in");
      // The preview wrote nothing.
      expect((await rec.api.get('/api/shows')).body.shows).toEqual([]);

      await page.getByRole('button', { name: 'Import from fetcharr' }).click();
      await expect(page).toHaveURL(new URL('/recordings', rec.url).href);
      await expect(page.getByRole('heading', { name: 'Recordings' })).toBeVisible();
      const spring = page.locator('[data-box-id="64$0$0$0"]');
      await expect(spring).toContainText('Garden Makeover');
      await expect(spring.getByTestId('status')).toHaveText(/done/i);
      const failed = page.locator('[data-box-id="64$0$2$1"]');
      await expect(failed.getByTestId('error')).toContainText('404');
      expect((await rec.api.get('/api/recordings')).body.recordings).toHaveLength(5);
      expect((await rec.api.get('/api/settings')).body.settings.media_root).toBe(copy.media);
    } finally {
      fs.rmSync(copy.root, { recursive: true, force: true });
    }
  });
});
