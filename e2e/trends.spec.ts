import type { Request } from '@playwright/test';
import { createDemoClock } from '../main/core/clock.js';
import type { HistorySample } from '../main/energy/history/sample.js';
import { todayAt, weekOfHistory } from './bridge.js';
import { expect, test } from './fixtures.js';

const isHistory = (r: Request) => new URL(r.url()).pathname === '/api/history';
const params = (r: Request) => {
  const u = new URL(r.url());
  return { since: Number(u.searchParams.get('since')), until: Number(u.searchParams.get('until')), every: Number(u.searchParams.get('every')) };
};

test.describe('trends', () => {
  test.use({ bridgeOptions: { configured: true, simHour: 12, seedHistory: () => weekOfHistory() } });

  test('charts a seeded history and each range asks for its own window and bucket size', async ({ page }) => {
    const first = page.waitForRequest(isHistory);
    await page.goto('/trends');
    const q1 = params(await first);
    expect(q1.every).toBe(10);
    expect(q1.until - q1.since).toBe(3_600_000);

    const summary = page.getByTestId('trends-summary');
    // 10 s buckets were asked for, but the history holds one sample a minute: the label says what the points are.
    await expect(summary).toContainText(/[1-9]\d* points, one per 60 s, shaded band = min to max/);
    await expect(summary).not.toContainText('one per 10 s');
    const chart = page.getByTestId('power-chart');
    await expect(chart.locator('path.recharts-line-curve')).toHaveCount(4);
    expect((await chart.locator('path.recharts-line-curve').first().getAttribute('d'))?.length).toBeGreaterThan(100);

    // Hover read-out: the bucket's time and each series, with the min–max range.
    const box = (await chart.locator('.recharts-surface').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    const readout = page.getByTestId('readout');
    await expect(readout).toBeVisible();
    await expect(readout).toContainText('Solar');
    await expect(readout).toContainText('Home');

    const day = page.waitForRequest(isHistory);
    await page.getByRole('button', { name: '24 hours' }).click();
    const q2 = params(await day);
    expect(q2.every).toBe(120);
    expect(q2.until - q2.since).toBe(86_400_000);
    await expect(summary).toContainText('one per 120 s');
    await expect(page.getByRole('button', { name: '24 hours' })).toHaveAttribute('aria-pressed', 'true');

    const week = page.waitForRequest(isHistory);
    await page.getByRole('button', { name: '7 days' }).click();
    const q3 = params(await week);
    expect(q3.every).toBe(900);
    expect(q3.until - q3.since).toBe(7 * 86_400_000);
    await expect(summary).toContainText(/\d+ points, one per 900 s/);
    await expect(page.getByTestId('soc-chart').locator('path.recharts-area-curve')).toHaveCount(1);

    // Custom: two days ago for six hours → ~600 points → every 36 s.
    await page.getByRole('button', { name: 'Custom' }).click();
    const from = new Date(Date.now() - 2 * 86_400_000);
    from.setMinutes(0, 0, 0);
    const to = new Date(from.getTime() + 6 * 3_600_000);
    const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('From').fill(local(from));
    await page.getByLabel('To', { exact: true }).fill(local(to));
    const custom = page.waitForRequest(isHistory);
    await page.getByRole('button', { name: 'Apply' }).click();
    const q4 = params(await custom);
    expect(q4.since).toBe(from.getTime());
    expect(q4.until).toBe(to.getTime());
    expect(q4.every).toBe(36);
    // 36 s buckets over one-a-minute samples: the points are one per 60 s.
    await expect(summary).toContainText(/\d+ points, one per 60 s/);
  });

  test('a short spike survives downsampling as the band maximum, and exports download', async ({ page }) => {
    await page.goto('/trends');
    await page.getByRole('button', { name: '24 hours' }).click();
    await expect(page.getByTestId('trends-summary')).toContainText('one per 120 s');
    // The seeded 9 kW one-minute spike on the house load is inside one 120 s bucket: its max is 9 kW.
    const res = await page.request.get(`/api/history?since=${Date.now() - 86_400_000}&until=${Date.now()}&every=120`);
    const rows = (await res.json()) as Array<{ homeMax: number | null; home: number | null }>;
    expect(Math.max(...rows.map((r) => r.homeMax ?? 0))).toBe(9000);
    const bandPaths = page.getByTestId('power-chart').locator('path.recharts-area-area');
    await expect(bandPaths).toHaveCount(4);

    const csv = page.getByRole('link', { name: /Download CSV/ });
    await expect(csv).toHaveAttribute('href', '/api/history/export?format=csv&every=120');
    const download = page.waitForEvent('download');
    await csv.click();
    const file = await (await download).path();
    const text = (await import('node:fs')).readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toMatch(/solar/);
    expect(text.split('\n').length).toBeGreaterThan(100);
  });
});

/** Two hours of one-a-minute samples ending a minute ago: no sun, the house draws 1.5 kW from the grid. */
function steadyImport(now = Date.now()): HistorySample[] {
  const rows: HistorySample[] = [];
  const start = Math.floor((now - 2 * 3_600_000) / 60_000) * 60_000;
  for (let t = start; t <= now - 60_000; t += 60_000) rows.push({ t, solar: 0, solarNative: 0, solarThirdParty: 0, home: 1500, homeGeneral: 1500, smartPort: null, grid: 1500, battery: 0, soc: 40, outdoorTemp: null });
  return rows;
}

const numberIn = (s: string) => Number(/-?[\d.]+/.exec(s.replace(/,/g, ''))?.[0]);

test.describe('trends totals', () => {
  test.use({ bridgeOptions: { configured: true, simHour: 0, seedHistory: () => steadyImport(), settings: { tariff: { importRate: 0.3 } } } });

  test('the hour on screen adds up to its kWh and its cost at the tariff', async ({ page, bridge }) => {
    await bridge.stopSimulator();
    await page.goto('/trends');
    await expect(page.getByTestId('trends-summary')).toContainText('one per 60 s');
    const totals = page.getByTestId('window-totals');
    await expect(totals).toBeVisible();
    // 1.5 kW for the hour on screen is 1.5 kWh bought, at 0.30 a kWh 0.45 (a minute either side: the window slides).
    const bought = numberIn(await page.getByTestId('total-import').innerText());
    expect(bought).toBeGreaterThan(1.44);
    expect(bought).toBeLessThan(1.56);
    expect(numberIn(await page.getByTestId('total-home').innerText())).toBeCloseTo(bought, 1);
    await expect(page.getByTestId('total-solar')).toHaveText('0.00 kWh');
    const cost = numberIn(await page.getByTestId('total-cost').innerText());
    expect(cost).toBeGreaterThan(0.43);
    expect(cost).toBeLessThan(0.47);

    // 24 hours on screen: only two hours were recorded, so about 3 kWh, not 24 hours' worth.
    await page.getByRole('button', { name: '24 hours' }).click();
    await expect(page.getByTestId('trends-summary')).toContainText('one per 120 s');
    await expect.poll(async () => numberIn(await page.getByTestId('total-import').innerText())).toBeGreaterThan(2.8);
    expect(numberIn(await page.getByTestId('total-import').innerText())).toBeLessThan(3.2);
  });
});

for (const [locale, shown] of [
  ['en-US', /^Demo clock 2:4\d PM · 2× speed$/],
  ['en-GB', /^Demo clock 14:4\d · 2× speed$/],
] as const) {
  test.describe(`demo clock badge (${locale})`, () => {
    test.use({ locale, bridgeOptions: { configured: true, simHour: 14.68, deps: () => ({ clock: createDemoClock({ start: todayAt(14 + 41 / 60), speed: 2 }) }) } });

    test("shows the demo time from its first paint, in the reader's 12/24-hour habit", async ({ page }) => {
      // Record every text the badge ever shows, from the first paint on.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { badgeTexts: string[] }).badgeTexts = seen;
        new MutationObserver(() => {
          const t = document.querySelector('[data-testid="demo-clock"]')?.textContent;
          if (t && seen[seen.length - 1] !== t) seen.push(t);
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.goto('/trends');
      await expect(page.getByTestId('demo-clock')).toHaveText(shown);
      const texts = await page.evaluate(() => (window as unknown as { badgeTexts: string[] }).badgeTexts);
      expect(texts.length).toBeGreaterThan(0);
      for (const t of texts) expect(t).toMatch(shown);
    });
  });
}

test.describe('trends totals with live prices', () => {
  // Amber is the source (no token: nothing is fetched; its address is a closed loopback port all the same).
  test.use({ bridgeOptions: { configured: true, simHour: 0, seedHistory: () => steadyImport(), settings: { tariff: { importRate: 0.3 }, prices: { source: 'amber', amber: { baseUrl: 'http://127.0.0.1:9/v1' } } } } });

  test("the window's cost is not made up from the fixed rates: it says the intervals price it", async ({ page, bridge }) => {
    await bridge.stopSimulator();
    await page.goto('/trends');
    await expect(page.getByTestId('window-totals')).toBeVisible();
    expect(numberIn(await page.getByTestId('total-import').innerText())).toBeGreaterThan(1.44);
    await expect(page.getByTestId('total-cost')).toHaveText('priced by interval');
    await expect(page.locator('#window-totals')).toContainText("today's cost by interval is below");
  });
});
