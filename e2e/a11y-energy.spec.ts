import { test as base, expect, type Page } from '@playwright/test';
import { UI_PAGES } from '../main/energy/service/web-ui.js';
import { checkBothSchemes, goInApp, headerLinks, SIZES, type AxeFinding } from './axe.js';
import { startBridge, type Bridge } from './bridge.js';

/**
 * Every page the energy service serves (its list of page paths: the wall view and each reading,
 * Trends, Savings, Settings and its sections, Setup) and the app's own "not found", checked with
 * axe-core (WCAG A/AA): no serious and no critical violation at desktop (1280) and phone (390)
 * sizes, light and dark. One service for the file, one page per size walking every route in the app
 * (no reloads), the colour scheme switched by emulation. The wall view keeps its own light/dark
 * choice (dark whatever the device says), so there its button sets the theme being checked.
 */
const test = base.extend<object, { sweepBridge: Bridge }>({
  sweepBridge: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      // A reading every 10 s rather than every second: the pages stay live, and axe is not checking a page
      // that redraws under it.
      const bridge = await startBridge({ configured: true, simHour: 12, demoPast: true, settings: { polling: { intervalMs: 10_000 } } });
      await use(bridge);
      await bridge.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ sweepBridge }, use) => use(sweepBridge.url),
});

const SETTINGS_SECTIONS = ['#tariff', '#alerts', '#names'];
const NOT_FOUND = '/no-such-page-here';

/** What each page shows once it has loaded; any other page: its heading and no "Loading…". */
async function ready(page: Page, path: string): Promise<void> {
  if (path === '/') return expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
  if (path.startsWith('/wall')) return expect(page.getByTestId('wall-status')).toContainText('Live');
  // Trends' charts are the largest chunk and its week of history the largest query: give a loaded machine time.
  if (path === '/trends') return expect(page.getByTestId('trends-summary')).toContainText('points', { timeout: 90_000 });
  if (path === '/savings') await expect(page.getByTestId('savings-table')).toBeVisible({ timeout: 30_000 });
  if (path.startsWith('/settings#')) await expect(page.getByTestId(`settings-${path.split('#')[1]}`)).toBeVisible();
  if (path === NOT_FOUND) return expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByText('Loading…')).toHaveCount(0, { timeout: 30_000 });
}

/** The wall view's own theme button (pressed = dark). */
async function wallTheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  const dark = page.getByRole('button', { name: 'Dark' });
  if ((await dark.getAttribute('aria-pressed')) !== String(scheme === 'dark')) await dark.click();
  await expect(dark).toHaveAttribute('aria-pressed', String(scheme === 'dark'));
}

for (const size of SIZES) {
  test(`every energy page: 0 serious or critical axe violations, ${size.name}, light and dark`, async ({ page }) => {
    test.setTimeout(300_000); // room for a machine shared with other work (about 45 s at a load of 25 on 2 cores)
    await page.setViewportSize(size.viewport);
    await page.goto('/');
    await ready(page, '/');
    // Every page the header links to is in the service's list of pages, so the sweep below reaches it.
    for (const link of await headerLinks(page)) expect(UI_PAGES as readonly string[], link).toContain(link);

    const routes = [...UI_PAGES, ...SETTINGS_SECTIONS.map((s) => `/settings${s}`), NOT_FOUND];
    const found: Record<string, AxeFinding[]> = {};
    for (const path of routes) {
      await goInApp(page, path);
      await ready(page, path);
      await checkBothSchemes(page, path, found, path.startsWith('/wall') ? (s) => wallTheme(page, s) : undefined);
    }
    expect(found).toEqual({});
  });
}

test.describe('keyboard', () => {
  test('every control on the wall view and a settings section is reachable by Tab, with a visible focus ring', async ({ page }) => {
    for (const path of ['/wall', '/settings#alerts']) {
      await page.goto(path);
      await ready(page, path);
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        const info = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return null;
          const cs = getComputedStyle(el);
          return { key: `${el.tagName}:${el.textContent?.trim().slice(0, 30)}:${el.getAttribute('aria-label') ?? ''}`, outline: cs.outlineStyle, width: cs.outlineWidth };
        });
        if (!info) continue;
        expect(info.outline, info.key).not.toBe('none');
        seen.add(info.key);
      }
      if (path === '/wall') {
        for (const name of ['Smaller text', 'Larger text']) expect([...seen].some((k) => k.includes(name)), name).toBe(true);
        expect([...seen].some((k) => k.startsWith('BUTTON:Dark'))).toBe(true);
        expect([...seen].some((k) => k.startsWith('A:Solar'))).toBe(true);
      } else {
        expect([...seen].some((k) => k.startsWith('BUTTON:Add an alert rule'))).toBe(true);
      }
    }
  });
});
