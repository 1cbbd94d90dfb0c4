import { test, expect } from './fixtures.js';

test.use({ bridgeOptions: { configured: true, simHour: 12, settings: { general: { timezone: 'Europe/Berlin' } } } });

test.describe('energy header: what the bridge is doing and its clock', () => {
  test('says the gateway is being read, shows the clock in the bridge’s time zone, and says when the gateway goes away', async ({ page, bridge }) => {
    test.setTimeout(90_000);
    await page.goto('/');
    const chip = page.getByTestId('header-sync-status');
    await expect(chip).toHaveText('Reading the gateway');
    // Its dot blinks while the gateway is read, without an endless animation (which would have a wall
    // tablet draw a frame at every screen refresh): dim one second, lit the next.
    const dot = chip.locator('.dot');
    await expect(dot).toHaveClass(/\bdim\b/, { timeout: 5_000 });
    await expect(dot).not.toHaveClass(/\bdim\b/, { timeout: 5_000 });
    expect(await page.evaluate(() => document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations === Infinity).length)).toBe(0);
    // The clock is in the bridge's time zone (its setting), not the browser's.
    const clock = page.getByTestId('header-clock');
    await expect(clock).toContainText('Europe/Berlin');
    const berlin = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'Europe/Berlin' }).format(new Date());
    await expect(clock).toContainText(berlin.replace(/\s?[AP]M$/i, ''));
    // Every page carries it.
    await page.getByRole('link', { name: 'Trends' }).click();
    await expect(page.getByTestId('header-clock')).toContainText('Europe/Berlin');

    await bridge.stopSimulator();
    await expect(page.getByTestId('header-sync-status')).toHaveText('Gateway offline', { timeout: 30_000 });
    await bridge.restartSimulator();
    await expect(page.getByTestId('header-sync-status')).toHaveText('Reading the gateway', { timeout: 30_000 });
  });
});
