import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakeWeather } from '../main/energy/weather/fake-server.js';
import { goInApp } from './axe.js';
import { firstRunOnLoopbackLan } from './bridge.js';
import { expect, test } from './fixtures.js';

/**
 * Screenshots of every energy page, desktop and phone sizes. `UPDATE_SCREENSHOTS=1` writes them to
 * docs/screenshots for the README; otherwise they go to test-results so a test run leaves the tree clean.
 */
const OUT = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '..', 'docs', 'screenshots')
  : path.resolve(import.meta.dirname, '..', 'test-results', 'screenshots');
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function shoot(page: Page, file: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(OUT, file), fullPage: true });
}

test.describe('screenshots', () => {
  // A tariff with a time-of-use window and an alert that holds, so cost and alerts are on the pages.
  const insight = {
    tariff: { importRate: 0.3, feedInRate: 0.08, dailySupplyCharge: 1.1, windows: [{ name: 'Peak', start: '15:00', end: '21:00', importRate: 0.45 }] },
    alerts: [{ id: 'soc', name: 'Battery under 80 %', trigger: 'batterySoc', condition: 'atOrBelow', threshold: 80, settleSeconds: 0 }],
  };
  // The week before comes from the demo's seeding (the plant model), so Trends looks as in `npm run demo`.
  test.use({ bridgeOptions: { configured: true, simHour: 11.5, demoPast: true, settings: insight } });

  for (const size of SIZES) {
    test(`dashboard, trends and settings (${size.name})`, async ({ page }) => {
      // Fourteen pages and views, each waited for and shot: more than the default 45 s on a busy machine.
      test.setTimeout(180_000);
      const weather = await startFakeWeather({ temperature: 22.4, weatherCode: 2 });
      await page.request.put('/api/settings', { data: { weather: { enabled: true, location: 'Sydney', forecastUrl: weather.forecastUrl, geocodingUrl: weather.geocodingUrl } } });
      await page.setViewportSize(size.viewport);
      await page.goto('/');
      await expect(page.getByTestId('header-weather')).toContainText('22.4');
      await expect(page.getByTestId('alerts')).toContainText('Battery under 80 %');
      await expect(page.getByTestId('cost-net')).toBeVisible();
      await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
      await expect(page.getByTestId('battery-estimate')).not.toBeEmpty();
      await shoot(page, `dashboard-${size.name}.png`);
      // The other pages are reached in the app, as a user moves between them (one page load per size).

      await goInApp(page, '/trends');
      await page.getByRole('button', { name: '24 hours' }).click();
      await expect(page.getByTestId('trends-summary')).toContainText('one per 120 s');
      await expect(page.getByTestId('power-chart').locator('path.recharts-line-curve')).toHaveCount(4);
      await shoot(page, `trends-${size.name}.png`);

      await goInApp(page, '/settings');
      await expect(page.getByTestId('settings-gateway')).toBeVisible();
      await shoot(page, `settings-${size.name}.png`);
      await goInApp(page, '/settings#tariff');
      await expect(page.getByTestId('explainer-tariff')).toBeVisible();
      await shoot(page, `settings-tariff-${size.name}.png`);

      // The wall view: dark by default, whatever the device's theme.
      await goInApp(page, '/wall');
      await expect(page.getByTestId('wall-status')).toContainText('Live');
      await shoot(page, `wall-${size.name}.png`);
      await goInApp(page, '/wall/solar');
      await expect(page.getByTestId('wall-solar')).toContainText('kW');
      await shoot(page, `wall-solar-${size.name}.png`);
      await weather.close();
    });
  }

  test('dashboard in dark mode, and offline', async ({ page, bridge }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
    await shoot(page, 'dashboard-dark-desktop.png');
    await bridge.stopSimulator();
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await page.emulateMedia({ colorScheme: 'light' });
    await shoot(page, 'dashboard-offline-desktop.png');
  });
});

test.describe('screenshots of the setup wizard', () => {
  test.use({ bridgeOptions: firstRunOnLoopbackLan });
  for (const size of SIZES) {
    test(`setup (${size.name})`, async ({ page }) => {
      await page.setViewportSize(size.viewport);
      await page.goto('/setup');
      await expect(page.getByTestId('scan-status')).toContainText('Found a gateway', { timeout: 20_000 });
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(page.getByTestId('test-result')).toBeVisible();
      await shoot(page, `setup-${size.name}.png`);
    });
  }
});
