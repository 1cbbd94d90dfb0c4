import { startFakeWeather, type FakeWeather } from '../main/energy/weather/fake-server.js';
import { expect, test } from './fixtures.js';

// Evening on the simulated plant with an empty battery: the house draws from the grid.
test.use({ bridgeOptions: { configured: true, simHour: 21 } });

test.describe('energy insight', () => {
  test('a tariff saved in settings shows a cost on the dashboard after the next polls', async ({ page, bridge }) => {
    bridge.sim.plant.soc = 0;
    await page.goto('/settings#tariff');
    const tariff = page.getByTestId('settings-tariff');
    await tariff.getByRole('button', { name: 'Add a window' }).click();
    const win = tariff.getByTestId('tou-window-0');
    await win.getByLabel('Name').fill('All day');
    await win.getByLabel('Start').fill('00:00');
    await win.getByLabel('End').fill('00:00');
    await win.getByLabel('Import rate').fill('90');
    // Weekday toggles: every day stays on.
    for (const d of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) await expect(win.getByLabel(d)).toBeChecked();
    await tariff.getByRole('button', { name: 'Save tariff' }).click();
    await expect(page.getByTestId('status-tariff')).toHaveText('Saved. Changes apply now.');
    expect(bridge.service.settings.get().tariff.windows[0]).toMatchObject({ name: 'All day', start: '00:00', end: '00:00', importRate: 90 });

    await page.goto('/');
    const net = page.getByTestId('cost-net');
    await expect(net).toBeVisible();
    await expect(net).toHaveText(/cost/, { timeout: 20_000 });
    await expect(net).not.toHaveText(/^\D*0[.,]00\D*cost$/, { timeout: 20_000 });
    await page.getByText('show breakdown').click();
    await expect(page.getByTestId('cost-import')).toContainText('kWh');
  });

  test('a bad window is refused with the message next to the field', async ({ page }) => {
    await page.goto('/settings#tariff');
    const tariff = page.getByTestId('settings-tariff');
    await tariff.getByRole('button', { name: 'Add a window' }).click();
    await tariff.getByRole('button', { name: 'Add a window' }).click();
    await tariff.getByTestId('tou-window-1').getByLabel('Start').fill('08:00');
    await tariff.getByTestId('tou-window-1').getByLabel('End').fill('12:00');
    await tariff.getByRole('button', { name: 'Save tariff' }).click();
    await expect(tariff.getByTestId('tou-window-1').getByRole('alert')).toContainText('overlaps window 1');
  });

  test("an alert built in the form shows on the dashboard while the SOC is under its threshold and clears after", async ({ page, bridge }) => {
    bridge.sim.plant.soc = 60;
    await page.goto('/settings#alerts');
    const alerts = page.getByTestId('settings-alerts');
    await alerts.getByRole('button', { name: 'Add an alert rule' }).click();
    const rule = alerts.getByTestId('alert-rule-0');
    // Without a web address to call, the test button is off and says why.
    const testAlert = rule.getByRole('button', { name: 'Send a test alert' });
    await expect(testAlert).toBeDisabled();
    await expect(testAlert).toHaveAccessibleDescription('Enter the web address to call (the webhook) first.');
    await expect(page.getByTestId('explainer-alerts')).toContainText('Send a test alert');
    await rule.getByLabel('Name').fill('Battery nearly empty');
    await rule.getByLabel('Watch').selectOption('batterySoc');
    await rule.getByLabel('When', { exact: true }).selectOption('atOrBelow');
    await rule.getByLabel('Level').fill('15');
    await rule.getByLabel('Wait before starting').fill('2');
    await alerts.getByRole('button', { name: 'Save alerts' }).click();
    await expect(page.getByTestId('status-alerts')).toHaveText('Saved. Changes apply now.');

    await page.goto('/');
    await expect(page.getByText('No active alerts.')).toBeVisible();
    bridge.sim.plant.soc = 8;
    const list = page.getByTestId('alerts');
    await expect(list).toContainText('Battery nearly empty', { timeout: 20_000 });
    await expect(list).toContainText('at or below 15 %');
    await expect(list).toContainText('since');
    bridge.sim.plant.soc = 70;
    await expect(page.getByText('No active alerts.')).toBeVisible({ timeout: 20_000 });
  });

  test.describe('weather', () => {
    let fake: FakeWeather;
    test.beforeEach(async () => {
      fake = await startFakeWeather({ temperature: 18.6, weatherCode: 3 });
    });
    test.afterEach(async () => {
      await fake.close();
    });

    test('a place found in settings is tested live and its temperature shows in the dashboard header', async ({ page }) => {
      expect((await page.request.put('/api/settings', { data: { weather: { forecastUrl: fake.forecastUrl, geocodingUrl: fake.geocodingUrl } } })).ok()).toBe(true);
      await page.goto('/settings#weather');
      const weather = page.getByTestId('settings-weather');
      await weather.getByLabel('Place', { exact: true }).fill('Melb');
      await weather.getByRole('button', { name: 'Find place' }).click();
      await weather.getByRole('button', { name: /Melbourne, Victoria, Australia/ }).click();
      await expect(weather.getByLabel('Latitude')).toHaveValue('-37.814');
      await weather.getByRole('button', { name: 'Test weather' }).click();
      await expect(weather.getByText(/Weather answered: 18.6 °C at Melbourne/)).toBeVisible();
      await weather.getByLabel('Weather', { exact: true }).check();
      await weather.getByRole('button', { name: 'Save weather' }).click();
      await expect(page.getByTestId('status-weather')).toHaveText('Saved. Changes apply now.');

      await page.goto('/');
      await expect(page.getByTestId('header-weather')).toContainText('18.6 °C', { timeout: 20_000 });
      await expect(page.getByTestId('header-weather')).toContainText('Melbourne');
      await expect(page.getByTestId('weather')).toContainText('Overcast');
    });
  });
});
