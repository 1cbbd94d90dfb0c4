import type { Page } from '@playwright/test';
import type { Snapshot } from '../main/energy/published.js';
import type { IntervalBill } from '../renderer/energy/prices/types.js';
import { seriousViolations } from './axe.js';
import { expect, test } from './fixtures.js';

// Issue 43's pages: the live price, its descriptor and what it means, the next hours as a chart, the
// day's cost by interval and the day ahead's cheapest and dearest hours. The bridge's real snapshot
// carries a `prices` block (and the outlook's prices) as the price source gives them: a spike now,
// with feed-in below zero, over 5-minute Amber intervals.
const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();

function pricesFor(now: number): NonNullable<Snapshot['prices']> {
  const start = Math.floor(now / (5 * MIN)) * 5 * MIN;
  const point = (i: number) => {
    const s = start + i * 5 * MIN;
    const spike = i === 0 || i === 30;
    return { start: iso(s), end: iso(s + 5 * MIN), importPerKwh: spike ? 12.5 : i % 24 < 6 ? -0.03 : 0.28, feedInPerKwh: i < 12 ? -0.04 : 0.05, descriptor: spike ? ('spike' as const) : i % 24 < 6 ? ('negative' as const) : ('neutral' as const), spike, estimate: i === 0 };
  };
  return { source: 'amber', currency: 'AUD', stale: false, fetchedAt: iso(now), current: point(0), forecast: Array.from({ length: 288 }, (_, i) => point(i + 1)) };
}

function billFor(now: number): IntervalBill {
  const start = Math.floor(now / (5 * MIN)) * 5 * MIN - 12 * 5 * MIN;
  return {
    date: iso(now).slice(0, 10), timezone: 'Australia/Sydney', currency: 'AUD', source: 'amber', fallbackKwh: 0.1,
    intervals: Array.from({ length: 12 }, (_, i) => {
      const spike = i === 6;
      const importKwh = i < 6 ? 0.1 : 0;
      const exportKwh = i < 6 ? 0 : 0.25;
      const importPerKwh = spike ? 12.5 : 0.28;
      const feedInPerKwh = i > 8 ? -0.04 : 0.05;
      return { start: iso(start + i * 5 * MIN), end: iso(start + (i + 1) * 5 * MIN), importPerKwh, feedInPerKwh, importKwh, exportKwh, importCost: importKwh * importPerKwh, feedIn: exportKwh * feedInPerKwh, net: exportKwh * feedInPerKwh - importKwh * importPerKwh, spike };
    }),
  };
}

/** The bridge's own snapshot, with the price source's block and the outlook's prices, on the stream and on GET. */
async function withPrices(page: Page): Promise<void> {
  const real = (await (await page.request.get('/api/snapshot')).json()) as Snapshot;
  const now = Date.now();
  const snap: Snapshot = {
    ...real,
    prices: pricesFor(now),
    ...(real.outlook
      ? { outlook: { ...real.outlook, prices: { currency: 'AUD', cheapest: { startsAt: iso(now + 3 * 3_600_000), endsAt: iso(now + 4 * 3_600_000), averagePerKwh: -0.03 }, dearest: { startsAt: iso(now + 2 * 3_600_000), endsAt: iso(now + 3 * 3_600_000), averagePerKwh: 1.2 }, evening: { fromAt: iso(now), untilAt: iso(now + 6 * 3_600_000), batteryKwh: 4.2, worth: 3.95 } } } }
      : {}),
  };
  const body = JSON.stringify(snap);
  await page.route('**/events', (r) => r.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }, body: `retry: 60000\nevent: snapshot\ndata: ${body}\n\n` }));
  await page.route('**/api/snapshot', (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
  await page.route('**/api/cost/intervals', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(billFor(now)) }));
}

const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1);

for (const width of [390, 1280]) {
  test.describe(`live prices at ${width} px`, () => {
    // The page's service worker would fetch past the routes below: blocked here.
    test.use({ viewport: { width, height: 900 }, serviceWorkers: 'block' });

    test('the dashboard shows the price now, its descriptor, what it means and the next hours; the day ahead names the hours', async ({ page }) => {
      await withPrices(page);
      await page.goto('/');
      const card = page.getByTestId('price-now');
      await expect(card).toBeVisible();
      await expect(page.getByTestId('price-import')).toContainText('12.50/kWh');
      await expect(page.getByTestId('price-descriptor')).toHaveText('spike');
      await expect(page.getByTestId('price-feed-in')).toHaveText('−4.0 c/kWh');
      const words = page.getByTestId('price-explainer');
      await expect(words).toContainText('Price spike: importing costs');
      await expect(words).toContainText('Export is costing money now (−4.0 c/kWh');
      await expect(words).toContainText('The current price is an estimate');
      // 144 five-minute bars for the next 12 hours; the spike and the negative ones marked.
      await expect(page.getByTestId('price-chart').locator('rect')).toHaveCount(144);
      await expect(page.getByTestId('price-chart').locator('rect.spike')).toHaveCount(1);
      await expect(page.getByTestId('price-chart').locator('rect.negative').first()).toBeAttached();
      await expect(page.getByTestId('price-hours')).toContainText('Cheapest hour');
      await expect(page.getByTestId('evening-worth')).toContainText('4.2 kWh, worth');
      expect(await noSideways(page)).toBe(true);
      expect(await seriousViolations(page, ['main'])).toEqual([]);
    });

    test('Trends shows the 24-hour forecast and today’s cost by interval', async ({ page }) => {
      test.setTimeout(180_000); // axe over the Trends page is slow on a busy machine
      await withPrices(page);
      await page.goto('/trends');
      await expect(page.getByTestId('trends-price-chart').locator('rect')).toHaveCount(288);
      const cost = page.getByTestId('interval-cost');
      // The bill is fetched once the stream's prices are in; on a loaded machine it has shown 25 s late.
      await expect(cost.getByTestId('interval-totals')).toContainText('over 12 intervals today', { timeout: 60_000 });
      await expect(cost.getByTestId('interval-fallback')).toContainText('0.10 kWh had no interval price');
      await expect(cost.locator('svg.interval-bars rect')).toHaveCount(12);
      await cost.getByText('Every interval').click();
      await expect(cost.getByTestId('interval-table').locator('tbody tr')).toHaveCount(12);
      await expect(cost.getByTestId('interval-table').locator('tr.spike')).toContainText('(spike)');
      expect(await noSideways(page)).toBe(true);
      expect(await seriousViolations(page, ['main'])).toEqual([]);
    });
  });
}
