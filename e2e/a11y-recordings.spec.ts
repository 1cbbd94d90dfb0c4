import type { Page } from '@playwright/test';
import { sampleShow } from '../main/recordings/box/simulator/sample-library.js';
import { seriousViolations } from './axe.js';
import { expect, test } from './recordings-fixture.js';

/**
 * Every recordings page (and its open dialogs and panels) has no serious or critical axe-core
 * violation (WCAG 2.1 A/AA), at desktop and phone sizes, light and dark; the controls are reachable
 * by keyboard and show where the focus is.
 */
// The sweeps are independent: let both workers take them rather than one worker all of them.
test.describe.configure({ mode: 'parallel' });

const PAGES = ['/', '/recordings', '/shows', '/history', '/settings', '/setup', '/no-such-page'] as const;
const VARIANTS = [
  { name: 'desktop light', viewport: { width: 1280, height: 800 }, dark: false },
  { name: 'desktop dark', viewport: { width: 1280, height: 800 }, dark: true },
  { name: 'phone light', viewport: { width: 390, height: 844 }, dark: false },
  { name: 'phone dark', viewport: { width: 390, height: 844 }, dark: true },
] as const;

async function settled(page: Page, path: string) {
  if (path === '/no-such-page') return expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Loading…')).toHaveCount(0, { timeout: 30_000 });
}

test.describe('recordings accessibility', () => {
  test.use({
    recOptions: {
      shows: [sampleShow('2 Broke Girls', 903106335, 3, () => 20_000, 4), sampleShow('Gardening Australia', 585587764, 2, () => 20_000)],
      follow: [
        { name: 'broke girls', dest_folder: 'Comedy/2 Broke Girls' },
        { name: 'gardening', dest_folder: 'Gardening Australia' },
      ],
    },
  });

  // One test per page (its own service), each checked at the four sizes and themes.
  for (const path of PAGES) {
    test(`0 serious or critical violations: ${path} at desktop and phone, light and dark`, async ({ page, rec }) => {
      test.setTimeout(300_000);
      await rec.api.post('/api/sync');
      await rec.service.engine.current()?.done;
      const found: Record<string, unknown> = {};
      for (const v of VARIANTS) {
        await page.setViewportSize(v.viewport);
        await page.emulateMedia({ colorScheme: v.dark ? 'dark' : 'light' });
        await page.goto(path);
        await settled(page, path);
        const violations = await seriousViolations(page);
        if (violations.length) found[v.name] = violations;
        // The open states: the phone filter panel, the reset dialog with its typed confirmation.
        if (path === '/recordings' && v.viewport.width < 760) {
          await page.getByRole('button', { name: /^Filters/ }).click();
          const open = await seriousViolations(page);
          if (open.length) found[`${v.name}, filters open`] = open;
        }
        if (path === '/settings') {
          await page.getByRole('button', { name: 'Reset the recording sync…' }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
          const dialog = await seriousViolations(page);
          if (dialog.length) found[`${v.name}, reset dialog`] = dialog;
        }
      }
      expect(found).toEqual({});
    });
  }

  test('every control on the overview is reachable with Tab and shows a visible focus ring', async ({ page }) => {
    await page.goto('/');
    await settled(page, '/');
    const seen: Array<{ name: string; outline: string }> = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const f = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const s = getComputedStyle(el);
        return { name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40), outline: `${s.outlineStyle} ${s.outlineWidth}` };
      });
      if (!f) break;
      if (seen.some((s) => s.name === f.name)) break;
      seen.push(f);
    }
    const names = seen.map((s) => s.name);
    for (const want of ['Skip to content', 'Overview', 'Recordings', 'Shows', 'Sync history', 'Settings', 'Sync now', 'Manage shows', 'All recordings']) expect(names, want).toContain(want);
    for (const s of seen) expect(s.outline, s.name).toMatch(/^solid [1-9]/);
  });
});
