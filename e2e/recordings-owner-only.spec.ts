import { expect, test } from './recordings-fixture.js';
import { startGuestProxy } from './guest-proxy.js';

const NOTE = 'Change this from the PC itself, or set a passcode and unlock.';

test.describe('recording settings opened from another device', () => {
  test.use({ recOptions: { shows: [] } });

  test('the media folder is read-only with the reason; the sync schedule stays editable', async ({ browser, page, rec }) => {
    // On the PC itself: editable, and the detector file's path is shown.
    await page.goto('/settings');
    await expect(page.getByLabel('Media folder')).toBeEnabled();
    const proxy = await startGuestProxy();
    // Chromium sends loopback past a proxy unless told not to.
    const context = await browser.newContext({ baseURL: rec.url, proxy: { server: proxy.url, bypass: '<-loopback>' } });
    try {
      const guest = await context.newPage();
      await guest.goto('/settings');
      const folder = guest.getByLabel('Media folder');
      await expect(folder).toHaveValue(rec.mediaRoot);
      await expect(folder).toBeDisabled();
      await expect(folder).toHaveAccessibleDescription(new RegExp(NOTE.replace(/[.]/g, '\\.')));
      await expect(guest.getByLabel('Sync schedule')).toBeEnabled();
    } finally {
      await context.close();
      await proxy.close();
    }
  });
});
