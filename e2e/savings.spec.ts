import { startFakeWeather } from '../main/energy/weather/fake-server.js';
import { seriousViolations } from './axe.js';
import { expect, test } from './fixtures.js';

const hh = (h: number) => `${String(((h % 24) + 24) % 24).padStart(2, '0')}:00`;
// A peak window under way now (local time of this computer, the bridge's default zone), so the
// battery outlook always has a window to judge; the rest as in the demo.
const hour = new Date().getHours();
const insight = {
  tariff: { importRate: 0.3, feedInRate: 0.08, dailySupplyCharge: 1.1, windows: [{ name: 'Peak', start: hh(hour), end: hh(hour + 3), importRate: 0.45 }] },
};

interface Period {
  period: string;
  paid: number;
  savedByBattery: number;
  savedBySolarAndBattery: number;
}

test.describe('savings and the day ahead on the demo week', () => {
  // The week before comes from the demo's seeding (the plant model); savings are rebuilt from it on start.
  test.use({ bridgeOptions: { configured: true, simHour: 11.5, demoPast: true, settings: insight } });

  test('the Savings page, reached from Trends, shows the bars, the table behind them and the CSV, as the API computes them', async ({ page }) => {
    test.setTimeout(150_000); // a week of demo history is seeded first
    await page.goto('/trends');
    // Today is still running, so a second request could differ by a cent from what the page drew:
    // compare the page with the very answer it got (it asks again only after 60 s).
    const answer = page.waitForResponse((r) => r.url().includes('/api/savings?by=month'));
    await page.getByTestId('savings-link').click();
    await expect(page).toHaveURL(/\/savings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Savings' })).toBeVisible();

    const api = (await (await answer).json()) as { periods: Period[]; total: Period };
    expect(api.total.savedBySolarAndBattery).toBeGreaterThan(0);
    const total = page.getByTestId('savings-total');
    await expect(total).toContainText(api.total.savedByBattery.toFixed(2));
    await expect(total).toContainText(api.total.savedBySolarAndBattery.toFixed(2));
    await expect(page.getByTestId('savings-bars').locator('.recharts-bar-rectangle').first()).toBeVisible();
    await expect(page.getByTestId('savings-table').locator('tbody tr')).toHaveCount(api.periods.length);

    // The demo's week is eight local dates (seven days back to now), today still running.
    await page.getByRole('button', { name: 'Last 30 days' }).click();
    const rows = page.getByTestId('savings-table').locator('tbody tr');
    await expect(rows).toHaveCount(8);
    await expect(rows.last()).toContainText('partial');

    const href = (await page.getByTestId('savings-csv').getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/savings\?by=day&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&format=csv$/);
    const csv = await page.request.get(href);
    expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toMatch(/^period,days,completeDays,pricedDays,solarKwh/);
    expect(lines).toHaveLength(9);

    expect(await seriousViolations(page, ['main'])).toEqual([]);
  });

  test('the dashboard says what today saved, the solar expected from the forecast, and whether the battery covers the peak', async ({ page }) => {
    test.setTimeout(150_000);
    const weather = await startFakeWeather({ temperature: 22.4, weatherCode: 2 });
    try {
      const put = await page.request.put('/api/settings', { data: { solar: { ratedKwp: 6.6 }, weather: { enabled: true, location: 'Sydney', forecastUrl: weather.forecastUrl, geocodingUrl: weather.geocodingUrl } } });
      expect(put.ok()).toBe(true);
      await page.goto('/');
      await expect(page.getByTestId('saved-today')).toContainText(/(saved so far by solar and battery|more spent so far than without solar and battery) \(.+\)\. You (paid|earned a credit of) .+ instead of .+\./);
      const forecast = page.getByTestId('solar-forecast');
      await expect(forecast).toContainText(/Solar (expected today \d+\.\d kWh \(\d+\.\d kWh so far\),|today \d+\.\d kWh so far, more than the \d+\.\d kWh forecast \(the forecast was low\);) tomorrow \d+\.\d kWh\./, { timeout: 20_000 });
      // The week of history is the plant's own, so the forecast is scaled from it, not from the rated size.
      await expect(page.getByTestId('solar-basis')).toContainText(/Scaled from this plant's last \d+ days|assumes 5\.28 kWh per kWh\/m² from the rated 6\.6 kWp/);
      await expect(page.getByTestId('battery-outlook')).toContainText(new RegExp(`Peak: (covers ${hh(hour)}–${hh(hour + 3)}|reaches the reserve at \\d\\d:\\d\\d, .+ before the window ends)\\.`));
      expect(await seriousViolations(page, ['#saved-today', '#day-ahead'])).toEqual([]);
    } finally {
      await weather.close();
    }
  });
});
