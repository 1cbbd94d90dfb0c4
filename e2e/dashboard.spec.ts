import { formatPower } from '../renderer/kit/format.js';
import { todayAt } from './bridge.js';
import { EVERY_100_MS, expect, test } from './fixtures.js';

test.describe('dashboard', () => {
  test('numbers follow the simulator over several polls without reloading', async ({ page, bridge }) => {
    await page.goto('/');
    await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same page'));

    const solar = page.getByTestId('power-solar');
    const shown = async () => (await solar.textContent())?.trim();
    const simSolar = () => formatPower(bridge.sim.plant.flows.pvNative + bridge.sim.plant.flows.pvThirdParty);
    // Noon: the simulator's PV (with its per-poll cloud noise) appears on the page, poll after poll.
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      await expect.poll(async () => (await shown()) === simSolar(), { ...EVERY_100_MS, timeout: 5000 }).toBe(true);
      seen.add((await shown())!);
      const before = await page.getByTestId('last-poll').getAttribute('datetime');
      await expect.poll(() => page.getByTestId('last-poll').getAttribute('datetime'), EVERY_100_MS).not.toBe(before);
    }
    expect(seen.size).toBeGreaterThan(1);
    await expect(page.getByTestId('direction-solar')).toHaveText('Producing');
    await expect(page.getByTestId('direction-battery')).toHaveText('Charging');

    // Night: no sun, the battery covers the house.
    bridge.setSimTime(todayAt(2));
    await expect(solar).toHaveText('0 W');
    await expect(page.getByTestId('direction-solar')).toHaveText('Idle');
    await expect(page.getByTestId('direction-battery')).toHaveText('Discharging');
    await expect.poll(async () => (await page.getByTestId('power-home').textContent())?.trim() === formatPower(bridge.sim.plant.flows.load), EVERY_100_MS).toBe(true);
    await expect(page.getByTestId('battery-soc')).toHaveText(`${Math.round(bridge.sim.plant.soc * 10) / 10}%`);
    await expect(page.getByTestId('battery-reserve')).toHaveText('10%');

    // Per-inverter strings and smart loads, with their default names.
    await expect(page.getByRole('table').first().getByRole('rowheader', { name: 'String 1' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same page');
  });

  test('an offline gateway looks stale, and the dashboard recovers when it returns', async ({ page, bridge }) => {
    await page.goto('/');
    await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
    await expect(page.getByTestId('dashboard')).toHaveAttribute('data-stale', 'false');
    const lastSolar = await page.getByTestId('power-solar').textContent();

    await bridge.stopSimulator();
    const banner = page.getByTestId('offline-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Gateway offline since');
    await expect(banner).toContainText('Showing the last known values');
    await expect(page.getByTestId('connection-status')).toContainText('Gateway offline');
    await expect(page.getByTestId('dashboard')).toHaveAttribute('data-stale', 'true');
    // Last known values stay on screen (dimmed), never zeros.
    await expect(page.getByTestId('power-solar')).not.toHaveText('0 W');
    expect(await page.getByTestId('power-solar').textContent()).not.toBe('—');
    expect(lastSolar).not.toBe('0 W');
    const opacity = await page.locator('.stale .live').first().evaluate((el) => getComputedStyle(el).opacity);
    expect(Number(opacity)).toBeLessThan(1);

    await bridge.restartSimulator();
    await expect(page.getByTestId('connection-status')).toContainText('Gateway connected', { timeout: 15_000 });
    await expect(banner).toBeHidden();
    await expect(page.getByTestId('dashboard')).toHaveAttribute('data-stale', 'false');
  });
});

test.describe('dashboard over the live-dashboard cap', () => {
  test('a dashboard turned away because the bridge has its most dashboards gets in once one closes', async ({ page, context }) => {
    const put = await page.request.put('/api/settings', { data: { general: { eventStreamMaxClients: 1 } } });
    expect(put.status()).toBe(200);
    await page.goto('/');
    await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');

    const second = await context.newPage();
    await second.goto('/');
    // The bridge answers its event stream with 503: the page says so instead of showing live values.
    await expect(second.getByTestId('stream-banner')).toBeVisible();
    await expect(second.getByTestId('stream-banner')).toContainText('Reconnecting');

    await page.close();
    // The browser does not retry a refused stream by itself; the page does, and gets the freed slot.
    await expect(second.getByTestId('stream-banner')).toBeHidden({ timeout: 20_000 });
    const before = await second.getByTestId('last-poll').getAttribute('datetime');
    await expect.poll(() => second.getByTestId('last-poll').getAttribute('datetime'), { ...EVERY_100_MS, timeout: 10_000 }).not.toBe(before);
  });
});

test.describe('dashboard on first run', () => {
  test.use({ bridgeOptions: { configured: false, simHour: 12 } });
  test('offers the setup wizard when no gateway is configured', async ({ page }) => {
    await page.goto('/');
    const cta = page.getByTestId('setup-cta');
    await expect(cta).toContainText('No gateway is configured yet');
    await cta.getByRole('link', { name: 'Set up the gateway' }).click();
    await expect(page).toHaveURL(/\/setup$/);
  });
});
