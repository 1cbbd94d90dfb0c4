import { expect, test } from './fixtures.js';
import { startGuestProxy } from './guest-proxy.js';
import { openSection } from './settings-sections.js';

const NOTE = 'Change this from the PC itself, or set a passcode and unlock.';

test.describe('settings opened from another device', () => {
  test('the port and host names are read-only with the reason; the other settings stay editable', async ({ browser, bridge }) => {
    const proxy = await startGuestProxy();
    // Chromium sends loopback past a proxy unless told not to.
    const context = await browser.newContext({ baseURL: bridge.url, proxy: { server: proxy.url, bypass: '<-loopback>' } });
    try {
      const page = await context.newPage();
      await page.goto('/settings');
      await expect(page.getByTestId('owner-only-banner')).toContainText(NOTE);
      const general = await openSection(page, 'General');
      const port = general.getByLabel(/Server port/);
      await expect(port).toBeDisabled();
      await expect(port).toHaveAccessibleDescription(new RegExp(NOTE.replace(/[.]/g, '\\.')));
      await expect(general.getByTestId('allowed-hosts').getByRole('button', { name: 'Add host name' })).toBeDisabled();
      await expect(general.getByTestId('owner-only-note')).toHaveText(NOTE);
      // The server says the same to a request from this device.
      const refused = await page.evaluate(async () => (await fetch('/api/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ general: { serverPort: 5299 } }) })).status);
      expect(refused).toBe(403);
      const currency = general.getByLabel(/Currency/);
      await expect(currency).toBeEnabled();
      await currency.fill('NZD');
      await general.getByRole('button', { name: 'Save general' }).click();
      await expect(page.getByTestId('status-general')).toContainText('Saved');
      expect(bridge.service.settings.get().general.currency).toBe('NZD');
    } finally {
      await context.close();
      await proxy.close();
    }
  });

  test('on the PC itself they are editable', async ({ page }) => {
    await page.goto('/settings');
    const general = await openSection(page, 'General');
    await expect(general.getByLabel(/Server port/)).toBeEnabled();
    await expect(page.getByTestId('owner-only-banner')).toHaveCount(0);
  });
});
