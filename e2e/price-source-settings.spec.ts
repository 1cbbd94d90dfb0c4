import { startAmberSimulator, type AmberSimulator } from '../main/energy/prices/amber-simulator.js';
import { seriousViolations } from './axe.js';
import { expect, test } from './fixtures.js';
import { openSection } from './settings-sections.js';

// Issue 43's price source settings: Amber's token saved, the site picked from the account's sites
// (the bridge asks the Amber simulator on loopback), saved, and the Test button says the price now.
let amber: AmberSimulator;
test.beforeAll(async () => {
  amber = await startAmberSimulator({ now: () => Date.now() });
});
test.afterAll(async () => {
  await amber.close();
});

const noSideways = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1);

for (const width of [390, 1280]) {
  test.describe(`price source settings at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('pick the Amber site from the list, save, and test the prices', async ({ page }) => {
      test.setTimeout(180_000); // axe and the settings schema on a busy machine
      // The token and the Amber address are saved first (the site list is fetched with the saved token).
      const put = await page.request.put('/api/settings', { data: { prices: { source: 'amber', amber: { token: amber.token, baseUrl: amber.url } } } });
      expect(put.status()).toBe(200);
      await page.goto('/settings');
      // At phone width the section list is behind its toggle.
      const toggle = page.getByTestId('section-nav').locator('.section-nav-toggle');
      await expect(page.getByTestId('section-nav')).toBeVisible();
      if (await toggle.isVisible()) await toggle.click();
      const form = await openSection(page, 'Prices');
      await expect(page.getByTestId('open-section').getByText(/prices each moment at the price your retailer bills/)).toBeVisible();
      await expect(form.getByPlaceholder('set (type to replace)')).toBeVisible();
      await form.getByRole('button', { name: 'Find my sites' }).click();
      const sites = form.getByTestId('amber-sites');
      await expect(sites.getByRole('button')).toHaveCount(2);
      await sites.getByRole('button', { name: /Meter 4102000001/ }).click();
      await expect(form.getByTestId('amber-site-picker').getByRole('textbox')).toHaveValue(amber.siteId);
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(form.getByTestId('status-prices')).toContainText(/saved/i);
      await form.getByRole('button', { name: 'Test prices' }).click();
      await expect(form).toContainText(/Prices answered: now -?\d+\.\d\d c\/kWh to buy, feed-in -?\d+\.\d\d c\/kWh .*; 13 intervals\./);
      expect(await noSideways(page)).toBe(true);
      expect(await seriousViolations(page, ['main'])).toEqual([]);
    });
  });
}
