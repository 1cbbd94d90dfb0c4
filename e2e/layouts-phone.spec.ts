import type { Locator, Page } from '@playwright/test';
import { sampleShow } from '../main/recordings/box/simulator/sample-library.js';
import { expect, test } from './fixtures.js';
import { expect as recExpect, test as recTest } from './recordings-fixture.js';

/** Phone layouts (390 × 844): what a user needs stays in view and reads as one piece. */
const PHONE = { width: 390, height: 844 };

/** How many lines an element's text takes (its text boxes' distinct tops). */
const linesOf = (el: Locator) =>
  el.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });

/** Fully on the screen sideways: nothing to scroll to reach it. */
async function onScreen(page: Page, el: Locator) {
  const box = (await el.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
}

recTest.describe('recordings on a phone', () => {
  recTest.use({
    viewport: PHONE,
    recOptions: { shows: [sampleShow('Gardening Australia', 585587764, 2, () => 20_000)], follow: [{ name: 'gardening', dest_folder: 'Gardening Australia' }] },
  });

  recTest('sync history: each run shows its status and its counts, named, without scrolling sideways', async ({ page, rec }) => {
    await rec.api.post('/api/sync');
    await rec.service.engine.current()?.done;
    await page.goto('/history');
    const run = page.getByTestId('runs').locator('tbody tr').first();
    await recExpect(run.locator('.pill')).toBeVisible();
    await onScreen(page, run.locator('.pill'));
    const cells = run.locator('td');
    // Downloaded, failed, skipped: the counts with the words saying which is which.
    for (const [i, label, count] of [
      [5, 'Downloaded', '2'],
      [6, 'Failed', '0'],
      [7, 'Skipped', '0'],
    ] as const) {
      const cell = cells.nth(i);
      await recExpect(cell).toHaveText(count);
      await recExpect(cell).toBeInViewport();
      await onScreen(page, cell);
      expect(await cell.evaluate((el) => getComputedStyle(el, '::before').content)).toContain(label);
    }
  });

  recTest('a show\u2019s checkboxes sit beside their labels, a long label wrapping beside its box', async ({ page }) => {
    await page.goto('/shows');
    for (const name of ['Sync this show', 'Delete from the box after download']) {
      const box = page.getByRole('checkbox', { name });
      await recExpect(box).toBeVisible();
      const b = (await box.boundingBox())!;
      const label = (await page.locator(`label[for="${await box.getAttribute('id')}"]`).boundingBox())!;
      // Same line (the box's middle within the label's first line), the label just right of the box.
      expect(b.y + b.height / 2, name).toBeGreaterThan(label.y);
      expect(b.y + b.height / 2, name).toBeLessThan(label.y + 32);
      expect(label.x, name).toBeGreaterThan(b.x + b.width);
      expect(label.x - (b.x + b.width), name).toBeLessThan(16);
    }
  });
});

test.describe('energy on a phone', () => {
  // A feed-in rate above the import rate: the demo week's bills are credits, shown as negative amounts in the table.
  test.use({
    viewport: PHONE,
    bridgeOptions: { configured: true, simHour: 11.5, demoPast: true, settings: { tariff: { importRate: 0.05, feedInRate: 0.6, dailySupplyCharge: 0 } } },
  });

  test('a negative amount in the savings table never wraps after its minus sign, and the table scrolls by keyboard', async ({ page }) => {
    test.setTimeout(150_000); // a week of demo history is seeded first
    await page.goto('/savings');
    await page.getByRole('button', { name: 'Last 30 days' }).click();
    const table = page.getByTestId('savings-table');
    await expect(table.locator('tbody tr')).toHaveCount(8);
    const negative = table.locator('td').filter({ hasText: /^-/ });
    expect(await negative.count()).toBeGreaterThan(0);
    for (const cell of await negative.all()) expect(await linesOf(cell), await cell.innerText()).toBe(1);
    // The table is wider than a phone: its scroll region takes the focus, so arrow keys scroll it.
    const region = page.getByRole('region', { name: /Savings table/ });
    await region.focus();
    await expect(region).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });
});
