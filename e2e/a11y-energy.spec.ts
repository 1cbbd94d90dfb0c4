import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.js';
import { expect, test } from './fixtures.js';

/**
 * Every energy page and view, checked with axe-core (WCAG 2.1 A/AA): no serious and no critical
 * violation at desktop (1280) and phone (390) sizes, in light and dark. The wall view is dark by
 * default whatever the device says, so its light theme is checked by choosing it.
 */
// The sweeps are independent: let both workers take them rather than one worker all of them.
test.describe.configure({ mode: 'parallel' });

const VIEWS: Array<{ name: string; path: string; ready: (page: Page) => Promise<void>; before?: (page: Page) => Promise<void> }> = [
  { name: 'dashboard', path: '/', ready: (p) => expect(p.getByTestId('connection-status')).toContainText('Gateway connected') },
  { name: 'wall', path: '/wall', ready: (p) => expect(p.getByTestId('wall-status')).toContainText('Live') },
  {
    name: 'wall (light)',
    path: '/wall',
    before: (p) => p.evaluate(() => localStorage.setItem('energy.wall.theme', 'light')),
    ready: (p) => expect(p.getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'false'),
  },
  { name: 'wall, one reading', path: '/wall/battery', ready: (p) => expect(p.getByTestId('wall-battery')).toContainText('%') },
  // Trends' charts are the largest chunk: give a loaded machine time to bring it.
  { name: 'trends', path: '/trends', ready: (p) => expect(p.getByTestId('trends-summary')).toContainText('points', { timeout: 30_000 }) },
  { name: 'settings (gateway)', path: '/settings', ready: (p) => expect(p.getByTestId('settings-gateway')).toBeVisible() },
  { name: 'settings (tariff)', path: '/settings#tariff', ready: (p) => expect(p.getByTestId('settings-tariff')).toBeVisible() },
  { name: 'settings (alerts)', path: '/settings#alerts', ready: (p) => expect(p.getByTestId('settings-alerts')).toBeVisible() },
  { name: 'settings (names)', path: '/settings#names', ready: (p) => expect(p.getByTestId('settings-names')).toBeVisible() },
  { name: 'setup', path: '/setup', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { name: 'not found', path: '/no-such-page-here', ready: async () => undefined },
];

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  for (const scheme of ['light', 'dark'] as const) {
    test.describe(`energy pages, ${size.name}, ${scheme}`, () => {
      test.use({ viewport: size.viewport, colorScheme: scheme, bridgeOptions: { configured: true, simHour: 12, demoPast: true } });

      test('no serious or critical axe violations on any page or view', async ({ page }) => {
        test.setTimeout(240_000);
        const found: Record<string, unknown> = {};
        for (const v of VIEWS) {
          if (v.path === '/no-such-page-here') {
            // The server answers unknown paths itself (JSON 404): the single-page app's own "not found" is reached in-app.
            await page.goto('/');
            await page.evaluate(() => history.pushState(null, '', '/no-such-page-here'));
            await page.evaluate(() => dispatchEvent(new PopStateEvent('popstate')));
            await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
          } else {
            if (v.before) {
              await page.goto('/');
              await v.before(page);
            }
            await page.goto(v.path);
            await v.ready(page);
          }
          const violations = await seriousViolations(page);
          if (violations.length) found[v.name] = violations;
        }
        expect(found).toEqual({});
      });
    });
  }
}

test.describe('keyboard', () => {
  test('every control on the wall view and a settings section is reachable by Tab, with a visible focus ring', async ({ page }) => {
    for (const path of ['/wall', '/settings#alerts']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle').catch(() => undefined);
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
