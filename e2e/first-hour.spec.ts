import { createDemoClock } from '../main/core/clock.js';
import { todayAt } from './bridge.js';
import { expect, test } from './fixtures.js';
import { openSection } from './settings-sections.js';

test.describe('settings sections', () => {
  test('each section saves on its own, and Save is offered only after a change', async ({ page, bridge }) => {
    await page.goto('/settings');
    const polling = await openSection(page, 'Polling');
    const battery = page.getByTestId('settings-battery');
    const savePolling = polling.getByRole('button', { name: 'Save polling' });
    const saveBattery = battery.getByRole('button', { name: 'Save battery' });
    await expect(savePolling).toBeDisabled();
    // A disabled Save says why.
    await expect(savePolling).toHaveAccessibleDescription('Nothing to save: no changes yet.');
    // Numbers carry their unit: the poll interval in seconds.
    await expect(polling.locator('.field', { hasText: 'Poll interval' }).locator('.unit')).toHaveText('s');
    await polling.getByLabel('Poll interval').fill('0.5');
    await expect(savePolling).toBeEnabled();

    // One section at a time: opening Battery hides Polling (its edit is kept, unsent).
    await openSection(page, 'Battery');
    await expect(polling).toBeHidden();
    await expect(saveBattery).toBeDisabled();
    await expect(battery.locator('.field', { hasText: 'Battery capacity' }).locator('.unit')).toHaveText('kWh');
    await battery.getByLabel('Battery capacity').fill('16');
    await expect(saveBattery).toBeEnabled();

    await openSection(page, 'Polling');
    await expect(polling.getByLabel('Poll interval')).toHaveValue('0.5');
    await savePolling.click();
    await expect(polling.locator('.field .error')).toHaveText('Poll interval must be at least 1 second.');
    await expect(polling.getByLabel('Poll interval')).toHaveAttribute('aria-invalid', 'true');
    await polling.getByLabel('Poll interval').fill('3');
    await savePolling.click();
    await expect(page.getByTestId('status-polling')).toHaveText('Saved. Changes apply now.');
    expect(bridge.service.settings.get().polling.intervalMs).toBe(3000);
    // The battery section kept its edit, unsent, and still offers its own Save.
    expect(bridge.service.settings.get().battery.capacityKwh).toBeNull();
    await openSection(page, 'Battery');
    await expect(battery.getByLabel('Battery capacity')).toHaveValue('16');
    await expect(saveBattery).toBeEnabled();
    await saveBattery.click();
    await expect(page.getByTestId('status-battery')).toHaveText('Saved. Changes apply now.');
    expect(bridge.service.settings.get().battery.capacityKwh).toBe(16);
    await expect(saveBattery).toBeDisabled();

    // The dashboard agrees with the capacity just set: never more stored than the battery holds.
    await page.goto('/');
    await expect(page.getByTestId('battery-soc')).toBeVisible();
    await expect(page.locator('#battery')).toContainText(/of 16\.0 kWh/);
    // The ring and the line below it show the same figure.
    const line = (await page.getByTestId('battery-soc').textContent())!.trim();
    await expect(page.locator('#battery svg text')).toHaveText(line);
    // Each node's label fits inside its circle.
    await expect(page.locator('#flow svg g')).toHaveCount(4);
    for (const g of await page.locator('#flow svg g').all()) {
      const circle = (await g.locator('circle').boundingBox())!;
      const label = (await g.locator('text').boundingBox())!;
      expect(label.width).toBeLessThan(circle.width - 4);
    }
  });

  test('a time-of-use window and a smart-load name are edited with real controls', async ({ page, bridge }) => {
    await page.goto('/settings#tariff');
    const tariff = page.getByTestId('settings-tariff');
    await expect(page.getByTestId('explainer-tariff')).toContainText('outside every window the standard prices apply');
    await tariff.getByRole('button', { name: 'Add a window' }).click();
    const win = tariff.getByTestId('tou-window-0');
    await expect(win.getByLabel('Start')).toHaveAttribute('type', 'time');
    await win.getByLabel('Name').fill('Peak');
    await win.getByLabel('Start').fill('15:00');
    await win.getByLabel('End').fill('21:00');
    await win.getByLabel('Import rate').fill('0.45');
    await win.getByLabel('Sat').uncheck();
    await tariff.getByRole('button', { name: 'Save tariff' }).click();
    await expect(page.getByTestId('status-tariff')).toHaveText('Saved. Changes apply now.');
    expect(bridge.service.settings.get().tariff.windows[0]).toMatchObject({ name: 'Peak', start: '15:00', end: '21:00', importRate: 0.45 });
    expect(bridge.service.settings.get().tariff.windows[0]!.days).not.toContain('sat');

    const names = await openSection(page, 'Names');
    await expect(names.locator('textarea')).toHaveCount(0);
    await names.getByRole('button', { name: 'Add smart-load name' }).click();
    const row = names.getByTestId('smart-load-1');
    await row.getByLabel('Slot').selectOption('3');
    const named = names.getByTestId('smart-load-3');
    await named.getByLabel('Name of smart load 3').fill('Pool pump');
    await names.getByRole('button', { name: 'Add smart-load name' }).click();
    await names.getByTestId('smart-load-1').getByLabel('Name of smart load 1').fill('Hot water');
    await names.getByRole('button', { name: 'Remove smart load 1' }).click();
    await names.getByRole('button', { name: 'Save names' }).click();
    await expect(page.getByTestId('status-names')).toHaveText('Saved. Changes apply now.');
    expect(bridge.service.settings.get().names.smartLoads).toEqual({ '3': 'Pool pump' });

    // An empty name is refused in plain words next to its row.
    await named.getByLabel('Name of smart load 3').fill(' ');
    await names.getByRole('button', { name: 'Save names' }).click();
    await expect(named.getByRole('alert')).toHaveText('The name of smart load 3 cannot be empty.');
    expect(bridge.service.settings.get().names.smartLoads).toEqual({ '3': 'Pool pump' });
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

    test('the last section is two taps away', async ({ page }) => {
      await page.goto('/settings');
      await expect(page.getByTestId('settings-gateway')).toBeVisible();
      const last = page.locator('form[data-testid^="settings-"]').last();
      const lastHeading = last.locator('h2');
      await expect(lastHeading).toBeHidden();
      const title = (await lastHeading.innerText()).trim();
      await page.getByRole('button', { name: /^Sections/ }).tap();
      await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: title }).tap();
      await expect(lastHeading).toBeInViewport();
      await expect(page.getByTestId('settings-gateway')).toBeHidden();
      // The address names the open section; Back goes to the one before.
      expect(new URL(page.url()).hash).not.toBe('');
      await page.goBack();
      await expect(page.getByTestId('settings-gateway')).toBeVisible();
    });
  });
});

test.describe('the demo with a past', () => {
  test.use({
    bridgeOptions: {
      configured: true,
      simHour: 9.5,
      demoPast: true,
      deps: () => ({ clock: createDemoClock({ start: todayAt(9.5), speed: 30 }) }),
    },
  });

  test('Trends is full from the first second, on the demo clock the pages show', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('demo-clock')).toContainText(/Demo clock (9:[3-5]\d AM|09:[3-5]\d) · 30× speed/);

    await page.goto('/trends');
    // Trends' charts are the largest chunk: on a loaded machine it can take a while to arrive.
    await expect(page.getByTestId('demo-clock')).toBeVisible({ timeout: 25_000 });
    await page.getByRole('button', { name: '7 days' }).click();
    const summary = page.getByTestId('trends-summary');
    // A week at 15-minute buckets: about 672 points, right away.
    await expect(summary).toContainText(/6[5-9]\d points, one per 900 s/);
    const chart = page.getByTestId('power-chart');
    expect((await chart.locator('path.recharts-line-curve').first().getAttribute('d'))?.length).toBeGreaterThan(1000);
    // The x axis is marked across the whole week, not once at the last sample.
    await expect(chart.locator('.recharts-xAxis .recharts-cartesian-axis-tick')).toHaveCount(7);
  });
});
