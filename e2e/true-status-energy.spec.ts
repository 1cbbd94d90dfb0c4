import { createDemoClock } from '../main/core/clock.js';
import type { HistorySample } from '../main/energy/history/sample.js';
import { startFakeWeather } from '../main/energy/weather/fake-server.js';
import { todayAt } from './bridge.js';
import { expect, test } from './fixtures.js';

/**
 * Issue 42, "Messages that are false" on the energy pages: what a page says about the gateway, the
 * battery, money and the weather place is what is true, locked or not.
 */

async function setPasscode(url: string, code: string): Promise<void> {
  const res = await fetch(`${url}/api/security/passcode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode: code }) });
  expect(res.status).toBe(200);
}

test('locked, an offline gateway reads "offline", never "No gateway is configured yet"', async ({ page, bridge }) => {
  await page.goto('/');
  await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
  await bridge.stopSimulator();
  await expect(page.getByTestId('connection-status')).toContainText('Gateway offline');
  // The owner locks the bridge; this browser has no session, so the gateway's address is hidden from it.
  await setPasscode(bridge.url, '4711');
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toContainText('Gateway offline since');
  await expect(page.getByTestId('offline-banner')).toContainText('keeps retrying the gateway');
  await expect(page.getByTestId('setup-cta')).toHaveCount(0);
  await expect(page.getByText('No gateway is configured yet')).toHaveCount(0);
  // The address stays hidden: no host, no dangling ":port".
  await expect(page.getByTestId('connection-status')).not.toContainText('127.0.0.1');
  await expect(page.getByTestId('connection-status')).not.toContainText(' · :');
});

test.describe('money below zero', () => {
  // Noon: the plant exports what the battery cannot take, at a feed-in rate far above the import rate,
  // so today's bill is a credit and the battery (storing what could have been sold) costs money.
  test.use({ bridgeOptions: { configured: true, simHour: 12, settings: { tariff: { importRate: 0.01, feedInRate: 100, dailySupplyCharge: 0 } } } });

  test('a negative bill reads as a credit earned, in words, never "Paid -£2.18"', async ({ page }) => {
    await page.goto('/');
    const saved = page.getByTestId('saved-today');
    await expect(saved).toContainText('You earned a credit of', { timeout: 30_000 });
    await expect(saved).toContainText('instead of paying');
    await expect(saved).toContainText('the battery:');
    await expect(saved).toContainText('more spent');
    const text = (await saved.textContent()) ?? '';
    expect(text).not.toMatch(/[-−]\s*\D{0,3}\d/);
    expect(text).not.toContain('Paid');
  });
});

test.describe('self-sufficiency beside the bill', () => {
  // Noon: the plant covers the home and exports; nothing is paid for exports, so the bill so far is
  // the daily supply charge alone.
  test.use({ bridgeOptions: { configured: true, simHour: 12, settings: { general: { currency: 'AUD' }, tariff: { importRate: 0.3, feedInRate: 0, dailySupplyCharge: 1.06 } } } });

  test('"Self-sufficiency 100%" beside "You paid A$1.06" says the A$1.06 is the daily supply charge', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('saved-today')).toContainText('You paid A$1.06', { timeout: 30_000 });
    const self = page.getByTestId('self-sufficiency');
    await expect(self).toHaveText('Self-sufficiency 100%: the home took no power from the grid today. The A$1.06 paid is the daily supply charge.');
  });
});

/** Two hours of one sample a minute, ending a minute ago: the history a chart over the last hour reads. */
function minuteHistory(now = Date.now()): HistorySample[] {
  const rows: HistorySample[] = [];
  const start = Math.floor((now - 2 * 3_600_000) / 60_000) * 60_000;
  for (let t = start; t <= now - 60_000; t += 60_000) rows.push({ t, solar: 0, solarNative: 0, solarThirdParty: 0, home: 800, homeGeneral: 800, smartPort: null, grid: 800, battery: 0, soc: 40, outdoorTemp: null });
  return rows;
}

test.describe('trends export', () => {
  test.use({ bridgeOptions: { configured: true, simHour: 0, seedHistory: () => minuteHistory() } });

  test("the CSV button names the chart's row interval, and the two CSV files have different names", async ({ page, bridge }) => {
    await bridge.stopSimulator();
    await page.goto('/trends');
    await expect(page.getByTestId('trends-summary')).toContainText('one per 60 s');
    const every = page.getByTestId('csv-every');
    await expect(every).toHaveText('Download CSV (one row per 60 s)');

    const [thinned] = await Promise.all([page.waitForEvent('download'), every.click()]);
    const [all] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-all').click()]);
    expect(thinned.suggestedFilename()).toMatch(/^energy-history-\d{4}-\d{2}-\d{2}-every-60s\.csv$/);
    expect(all.suggestedFilename()).toMatch(/^energy-history-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(thinned.suggestedFilename()).not.toBe(all.suggestedFilename());
  });
});

test.describe('one battery estimate and one solar figure', () => {
  // A week of the plant's own history (as the demo seeds it), late morning, the battery charging; the
  // forecast's sunlight is a dull 5 W/m² all day, so what came so far is far above what was forecast.
  // The service's clock is the simulator's late morning too (real speed), so the seeded week ends at
  // 11:30 today whatever the real hour is (issue 39: no test reads the wall clock's hour).
  test.use({ bridgeOptions: { configured: true, simHour: 11.5, demoPast: true, deps: () => ({ clock: createDemoClock({ start: todayAt(11.5), speed: 1 }) }), settings: { tariff: { importRate: 0.3, feedInRate: 0.08 } } } });

  test('the battery card and The day ahead give the same full time; "so far" above "expected" says the forecast was low', async ({ page }) => {
    test.setTimeout(150_000); // a week of demo history is seeded first
    const weather = await startFakeWeather({ temperature: 18, weatherCode: 3, irradiance: () => 5 });
    try {
      const put = await page.request.put('/api/settings', { data: { solar: { ratedKwp: 6.6 }, weather: { enabled: true, location: 'Sydney', forecastUrl: weather.forecastUrl, geocodingUrl: weather.geocodingUrl } } });
      expect(put.ok()).toBe(true);
      await page.goto('/');
      const forecast = page.getByTestId('solar-forecast');
      await expect(forecast).toContainText('(the forecast was low)', { timeout: 30_000 });
      await expect(forecast).toContainText(/Solar today \d+\.\d kWh so far, more than the \d+\.\d kWh forecast/);
      await expect(forecast).not.toContainText('Solar expected today');

      await expect(page.getByTestId('direction-battery')).toHaveText('Charging');
      const dayAhead = (await page.getByTestId('outlook-full-at').textContent())!;
      expect(dayAhead).toMatch(/^(Full at about .+|Not expected to be full today)\.$/);
      await expect(page.getByTestId('battery-estimate')).toHaveText(dayAhead);
    } finally {
      await weather.close();
    }
  });

  test('with a week of history, the solar outlook learns from it, not "No history to learn from yet"', async ({ page }) => {
    test.setTimeout(150_000);
    const weather = await startFakeWeather({ temperature: 18, weatherCode: 1 });
    try {
      const put = await page.request.put('/api/settings', { data: { solar: { ratedKwp: 6.6 }, weather: { enabled: true, location: 'Sydney', forecastUrl: weather.forecastUrl, geocodingUrl: weather.geocodingUrl } } });
      expect(put.ok()).toBe(true);
      await page.goto('/');
      const basis = page.getByTestId('solar-basis');
      await expect(basis).toContainText(/Scaled from this plant's last [3-9] days/, { timeout: 30_000 });
      await expect(basis).not.toContainText('No history to learn from yet');
    } finally {
      await weather.close();
    }
  });
});
