import { createFakeEmbyServer } from '../main/recordings/mediaserver/fake-emby-server.js';
import { expect, test } from './recordings-fixture.js';

/** The media-server section with Jellyfin picked: address and API key, Test, Choose library; on a phone and a desktop. */
const KEY = 'e2e0jellyfin0key0123456789abcdef';

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`media servers at ${viewport.width} px`, () => {
    test.use({ viewport, recOptions: { shows: [] } });

    test('picks Jellyfin, saves its address and API key, tests it and chooses the TV library', async ({ page, rec }) => {
      const jellyfin = createFakeEmbyServer({ kind: 'jellyfin', apiKey: KEY, name: 'Lounge Jellyfin' });
      await jellyfin.start();
      try {
        await page.goto('/settings#media-server');
        await page.getByRole('radio', { name: /Jellyfin/ }).check();
        const card = page.locator('#media-server');
        // Plex's preferences file is not offered for Jellyfin; the address hint shows its port.
        await expect(card.getByLabel('Plex preferences file')).toHaveCount(0);
        await expect(card.getByLabel('Media server address')).toHaveAttribute('placeholder', /8096/);
        expect((await rec.api.get('/api/settings')).body.settings.media_server_kind).toBe('jellyfin');

        await card.getByLabel('Media server address').fill(jellyfin.url);
        await card.getByLabel('Media server token').fill(KEY);
        await card.getByRole('button', { name: 'Save' }).click();
        await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

        await card.getByRole('button', { name: 'Test' }).click();
        await expect(card.getByRole('status').filter({ hasText: 'accepts the API key' })).toContainText('Lounge Jellyfin');

        await card.getByRole('button', { name: 'Choose library' }).click();
        // The TV library is offered first choice; the movies one stays available.
        await expect(card.getByRole('radio', { name: /TV Shows/ })).toBeChecked();
        await expect(card.getByRole('radio', { name: /Movies/ })).not.toBeChecked();
        await card.getByRole('button', { name: 'Use this library' }).click();
        await expect(card.getByRole('status').filter({ hasText: 'is refreshed after new downloads' })).toContainText('TV Shows');
        await expect(card.getByLabel('Library section')).toHaveValue('767bffe4f11c93ef34b805451a696a4e');

        await expect(page.getByText(KEY)).toHaveCount(0);
        // Nothing runs off the side of the screen.
        const box = await card.boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await jellyfin.stop();
      }
    });
  });
}
