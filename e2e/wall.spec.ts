import type { Page } from '@playwright/test';
import { formatPercent, formatPower } from '../renderer/kit/format.js';
import { EVERY_100_MS, expect, test } from './fixtures.js';
import { expect as recExpect, test as recTest } from './recordings-fixture.js';

const fontPx = (page: Page, testId: string) => page.getByTestId(testId).locator('.wall-value').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
/** Relative luminance (0 black … 1 white) of an element's background. */
const luminance = (page: Page, sel: string) =>
  page.locator(sel).evaluate((el) => {
    const [r, g, b] = getComputedStyle(el).backgroundColor.match(/\d+/g)!.map(Number).map((v) => v / 255) as [number, number, number];
    const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  });

test.describe('wall view', () => {
  test.use({ colorScheme: 'light' });

  test('four big live readings on a dark page, even on a device set to light', async ({ page, bridge }) => {
    await page.goto('/wall');
    await expect(page.getByTestId('wall-status')).toContainText('Live · updated');
    expect(await luminance(page, '.wall')).toBeLessThan(0.05);
    // The same numbers as the simulated plant, live: battery state of charge, solar in kW at noon.
    await expect.poll(async () => (await page.getByTestId('wall-battery').locator('.wall-value').innerText()) === formatPercent(Math.round(bridge.sim.plant.soc * 10) / 10), EVERY_100_MS).toBe(true);
    await expect(page.getByTestId('wall-solar').locator('.wall-value')).toContainText('kW');
    await expect(page.getByTestId('wall-solar')).toContainText('Producing');
    await expect(page.getByTestId('wall-battery')).toContainText('Charging');
    await expect(page.getByTestId('wall-home')).toContainText('Using now');
    await expect(page.getByTestId('wall-grid')).toBeVisible();
    // Big: a reading is at least 48 px tall on a 1280 px screen (the dashboard's are 26 px).
    expect(await fontPx(page, 'wall-solar')).toBeGreaterThanOrEqual(48);
    // No site header taking room; the page still has one main landmark and a heading.
    await expect(page.locator('header.app-header')).toHaveCount(0);
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Energy now');
  });

  test('text size steps up and down, is kept on the device, and light is one button away', async ({ page }) => {
    await page.goto('/wall');
    await expect(page.getByTestId('wall-scale')).toHaveText('100%');
    const base = await fontPx(page, 'wall-home');
    await page.getByRole('button', { name: 'Larger text' }).click();
    await page.getByRole('button', { name: 'Larger text' }).click();
    await expect(page.getByTestId('wall-scale')).toHaveText('140%');
    expect(await fontPx(page, 'wall-home')).toBeCloseTo(base * 1.4, 0);
    await page.reload();
    await expect(page.getByTestId('wall-scale')).toHaveText('140%');
    for (let i = 0; i < 10; i++) if (await page.getByRole('button', { name: 'Smaller text' }).isEnabled()) await page.getByRole('button', { name: 'Smaller text' }).click();
    await expect(page.getByTestId('wall-scale')).toHaveText('60%');
    await expect(page.getByRole('button', { name: 'Smaller text' })).toBeDisabled();

    const dark = page.getByRole('button', { name: 'Dark' });
    await expect(dark).toHaveAttribute('aria-pressed', 'true');
    await dark.click();
    await expect(dark).toHaveAttribute('aria-pressed', 'false');
    expect(await luminance(page, '.wall')).toBeGreaterThan(0.8);
  });

  test('each reading opens full screen, by mouse or keyboard, and leads back', async ({ page }) => {
    await page.goto('/wall');
    const gridSize = await fontPx(page, 'wall-battery');
    await page.getByTestId('wall-battery').click();
    await expect(page).toHaveURL(/\/wall\/battery$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Battery');
    await expect(page.getByTestId('wall-solar')).toHaveCount(0);
    expect(await fontPx(page, 'wall-battery')).toBeGreaterThan(gridSize * 1.5);
    await expect(page.getByRole('navigation', { name: 'Other readings' }).getByRole('link')).toHaveCount(3);
    await page.getByRole('link', { name: 'All readings' }).click();
    await expect(page).toHaveURL(/\/wall$/);

    // Keyboard: Tab reaches the tiles, the focused one shows an outline, Enter opens it.
    let focused = '';
    for (let i = 0; i < 15 && !focused.startsWith('wall-'); i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    }
    expect(focused).toBe('wall-solar');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/wall\/solar$/);
    // Opened directly (a bookmark on the tablet), a reading's page works too.
    await page.goto('/wall/grid');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Grid');
  });

  test('fills a landscape tablet two by two, and at 140 % text every number stays on one line with its unit', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/wall');
    await expect(page.getByTestId('wall-status')).toContainText('Live');
    await expect(page.getByTestId('wall-solar').locator('.wall-value')).toContainText('kW');
    const tiles = ['wall-solar', 'wall-home', 'wall-battery', 'wall-grid'];
    const boxes = async () => Promise.all(tiles.map(async (t) => (await page.getByTestId(t).boundingBox())!));
    const twoByTwo = async () => {
      const b = await boxes();
      const xs = new Set(b.map((r) => Math.round(r.x)));
      const ys = new Set(b.map((r) => Math.round(r.y)));
      // Two columns and two rows, each tile close to half the screen wide, all four on the screen (no scrolling).
      expect([xs.size, ys.size], JSON.stringify(b)).toEqual([2, 2]);
      for (const r of b) {
        expect(r.width).toBeGreaterThan(1280 * 0.45);
        expect(r.y + r.height).toBeLessThanOrEqual(800);
      }
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(800);
    };
    await twoByTwo();

    await page.getByRole('button', { name: 'Larger text' }).click();
    await page.getByRole('button', { name: 'Larger text' }).click();
    await expect(page.getByTestId('wall-scale')).toHaveText('140%');
    await twoByTwo();
    for (const t of tiles) {
      // One line: every box of the number's text sits on the same line, inside its tile.
      const { lines, right, tileRight, text } = await page
        .getByTestId(t)
        .locator('.wall-value')
        .evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0);
          return {
            lines: new Set(rects.map((r) => Math.round(r.top))).size,
            right: Math.max(...rects.map((r) => r.right)),
            tileRight: el.parentElement!.getBoundingClientRect().right,
            text: el.textContent,
          };
        });
      expect(lines, `${t}: "${text}"`).toBe(1);
      expect(right, `${t}: "${text}"`).toBeLessThanOrEqual(tileRight);
    }
  });

  test('a gateway that stops answering is said in words and the numbers dim', async ({ page, bridge }) => {
    await page.goto('/wall');
    await expect(page.getByTestId('wall-status')).toContainText('Live');
    await bridge.stopSimulator();
    await expect(page.getByTestId('wall-status')).toContainText('Gateway not answering since', { timeout: 20_000 });
    await expect(page.locator('.wall-grid')).toHaveAttribute('data-stale', 'true');
  });
});

test.describe('dashboard power flow', () => {
  test('the diagram fills its half of the wide card with the numbers beside it', async ({ page }) => {
    await page.goto('/');
    const diagram = (await page.getByTestId('flow-diagram').boundingBox())!;
    const numbers = (await page.getByTestId('power-solar').boundingBox())!;
    expect(diagram.height).toBeGreaterThanOrEqual(300);
    expect(diagram.width).toBeGreaterThanOrEqual(450);
    expect(numbers.x).toBeGreaterThan(diagram.x + diagram.width - 10);
    expect(formatPower(1)).toBe('1 W');
  });
});

test.describe('installable energy app', () => {
  test('has a manifest with icons, and opened offline shows the last state, marked as such', async ({ page, context }) => {
    await page.goto('/wall');
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await page.request.get(manifestHref!)).json()) as { name: string; start_url: string; icons: Array<{ src: string }> };
    expect(manifest).toMatchObject({ name: 'Energy bridge', start_url: '/wall' });
    for (const icon of manifest.icons) expect((await page.request.get(icon.src)).headers()['content-type']).toBe('image/png');

    // The service worker takes over this page; the next readings pass through it and are kept.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    });
    await page.reload();
    await expect(page.getByTestId('wall-status')).toContainText('Live');
    const soc = await page.getByTestId('wall-battery').locator('.wall-value').innerText();
    await expect(page.getByTestId('offline-copy-banner')).toHaveCount(0);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('offline-copy-banner')).toContainText('Offline: this is the last state this device saw');
    await expect(page.getByTestId('wall-battery').locator('.wall-value')).toHaveText(soc);

    // Back online: live again, the mark goes.
    await context.setOffline(false);
    await page.reload();
    await expect(page.getByTestId('wall-status')).toContainText('Live');
    await expect(page.getByTestId('offline-copy-banner')).toHaveCount(0);
  });
});

recTest.describe('installable recordings app', () => {
  recTest('has its own manifest and opened offline shows the last state, marked as such', async ({ page, context, rec }) => {
    await page.goto(`${rec.url}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await page.request.get(`${rec.url}${href}`)).json()) as { name: string };
    recExpect(manifest.name).toBe('Recording sync');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    });
    await page.reload();
    await recExpect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await context.setOffline(true);
    await page.reload();
    await recExpect(page.getByTestId('offline-copy-banner')).toContainText('Offline: this is the last state this device saw');
    await recExpect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await context.setOffline(false);
  });
});
