import fs from 'node:fs';
import path from 'node:path';
import { sampleShow } from '../main/recordings/box/simulator/sample-library.js';
import { createCloudSimulator } from '../main/recordings/cloud/cloud-simulator.js';
import { createFakeMediaServer } from '../main/recordings/mediaserver/fake-media-server.js';
import { expect, test } from './recordings-fixture.js';

/** The media-server card, the cloud test and the per-row delete, against the fake media server and the cloud simulator on loopback. */

const TOKEN = 'e2eTok3n-abcdefghij';
const PIN = '24681357';
const CODE = 'E2E-ACTIVATION';

test.describe('media server and cloud', () => {
  test.use({ recOptions: { shows: [sampleShow('Bluey', 700000001, 2, () => 20_000)], follow: [{ name: 'bluey', dest_folder: 'Bluey' }] } });

  test('detects the token, picks the TV library, tests the cloud, deletes a recording from the box', async ({ page, rec }) => {
    const plex = createFakeMediaServer({ token: TOKEN, name: 'Lounge Plex' });
    await plex.start();
    const ids = ['700000001', '700000002'];
    const cloud = createCloudSimulator({ activationCode: CODE, pin: PIN, recordings: () => ids.map((id) => ({ id: `cloud-${id}`, dlnaId: id, name: id })) });
    await cloud.start();
    try {
      const prefs = path.join(rec.dir, 'Preferences.xml');
      fs.writeFileSync(prefs, `<Preferences PlexOnlineToken="${TOKEN}"/>`);
      await rec.api.patch('/api/settings', { media_server_url: plex.url, media_server_prefs_path: prefs, cloud_api_url: cloud.apiUrl, cloud_ws_url: cloud.wsUrl, cloud_activation_code: CODE, cloud_pin: PIN });

      await page.goto('/settings#media-server');
      const card = page.locator('#media-server');
      await card.getByRole('button', { name: 'Detect token' }).click();
      await expect(card.getByRole('status').filter({ hasText: 'Token found' })).toContainText('the media server accepts it');
      await card.getByRole('button', { name: 'Discover' }).click();
      await expect(card.getByRole('status').filter({ hasText: 'TV Shows' })).toContainText('library "TV Shows" (section 2) saved as the section to refresh');
      await expect(card.getByLabel('Library section')).toHaveValue('2');
      await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Box cloud account' }).click();
      await page.locator('#cloud').getByRole('button', { name: 'Test' }).click();
      await expect(page.locator('#cloud').getByRole('status')).toContainText('Signed in: 1 box: Lounge box (online)');
      await expect(page.getByText(TOKEN)).toHaveCount(0);
      await expect(page.getByText(PIN)).toHaveCount(0);

      const run = await rec.api.post('/api/sync');
      expect(run.status).toBe(202);
      await rec.service.engine.current()?.done;
      expect(plex.refreshes).toEqual(['2']);
      await page.goto('/history');
      await expect(page.getByText('library refreshed')).toBeVisible();

      await page.goto('/recordings');
      const row = page.locator('[data-box-id="700000002"]');
      // An in-page confirmation (no window.confirm): Cancel first changes nothing, then Delete.
      page.once('dialog', () => {
        throw new Error('a browser dialog opened');
      });
      await row.getByRole('button', { name: /Delete from box/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete from the box?' });
      await expect(dialog).toContainText('The downloaded file in your library stays');
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      expect(cloud.deleted).toEqual([]);
      await row.getByRole('button', { name: /Delete from box/ }).click();
      await dialog.getByRole('button', { name: 'Delete from box' }).click();
      await expect(page.getByText('was deleted from the box')).toBeVisible();
      await expect(row.getByText('deleted from box')).toBeVisible();
      await expect(row.getByRole('button', { name: /Delete from box/ })).toHaveCount(0);
      expect(cloud.deleted).toEqual(['cloud-700000002']);
    } finally {
      await cloud.stop();
      await plex.stop();
    }
  });
});
