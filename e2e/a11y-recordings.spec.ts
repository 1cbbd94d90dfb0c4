import path from 'node:path';
import Database from 'better-sqlite3';
import { test as base, expect, type Page } from '@playwright/test';
import { sampleShow } from '../main/recordings/box/simulator/sample-library.js';
import { testDataDir } from '../main/recordings/testing/harness.js';
import { RECORDINGS_UI_PAGES } from '../main/recordings/web-ui.js';
import { checkBothSchemes, goInApp, headerLinks, SIZES, type AxeFinding } from './axe.js';
import { startRecordings, type RecEnv } from './recordings-fixture.js';

/**
 * Every page the recording service serves (its list of page paths) and the app's own "not found",
 * with their open panels and dialogs, checked with axe-core (WCAG A/AA): no serious and no critical
 * violation at desktop and phone sizes, light and dark. One service for the file (after one sync,
 * so the lists have rows), one page per size walking every route in the app (no reloads), the
 * colour scheme switched by emulation. Then: the controls are reachable by keyboard and show focus.
 */
const test = base.extend<object, { sweepRec: RecEnv }>({
  sweepRec: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      // Every kind of row the list shows: downloaded, skipped (still recording), failed (the box answers 500)
      // and one deleted from the box (a tombstone, drawn faded).
      const gardening = sampleShow('Gardening Australia', 585587764, 2, () => 20_000);
      gardening.items[1]!.recording = 'size-unknown';
      const chase = sampleShow('The Chase Australia', 712000100, 2, () => 20_000);
      chase.items[1]!.failStatus = 500;
      const rec = await startRecordings({
        shows: [sampleShow('2 Broke Girls', 903106335, 3, () => 20_000, 4), gardening, chase],
        follow: [
          { name: 'broke girls', dest_folder: 'Comedy/2 Broke Girls' },
          { name: 'gardening', dest_folder: 'Gardening Australia' },
          { name: 'the chase', dest_folder: 'Quiz/The Chase' },
        ],
      });
      await rec.api.post('/api/sync');
      await rec.service.engine.current()?.done;
      const db = new Database(path.join(testDataDir(rec.dir), 'state.db'));
      db.prepare('UPDATE recordings SET purged_at = ?, deleted_from_box_at = ? WHERE box_id = ?').run(Date.now(), Date.now(), '903106335');
      db.close();
      rec.service.recordings.invalidate();
      await use(rec);
      await rec.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ sweepRec }, use) => use(sweepRec.url),
});

const NOT_FOUND = '/no-such-page';

async function settled(page: Page, path: string) {
  if (path === NOT_FOUND) return expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Loading…')).toHaveCount(0, { timeout: 30_000 });
  if (path === '/recordings') await expect(page.getByText('deleted from box').first()).toBeVisible();
}

for (const size of SIZES) {
  test(`every recordings page: 0 serious or critical axe violations, ${size.name}, light and dark`, async ({ page }) => {
    test.setTimeout(300_000); // room for a machine shared with other work (about 45 s at a load of 25 on 2 cores)
    await page.setViewportSize(size.viewport);
    await page.goto('/');
    await settled(page, '/');
    // Every page the header links to is in the service's list of pages, so the sweep below reaches it.
    for (const link of await headerLinks(page)) expect(RECORDINGS_UI_PAGES as readonly string[], link).toContain(link);

    const found: Record<string, AxeFinding[]> = {};
    for (const path of [...RECORDINGS_UI_PAGES, NOT_FOUND]) {
      await goInApp(page, path);
      await settled(page, path);
      await checkBothSchemes(page, path, found);
      // The open states: the phone filter panel, the reset dialog with its typed confirmation.
      if (path === '/recordings' && size.viewport.width < 760) {
        await page.getByRole('button', { name: /^Filters/ }).click();
        await checkBothSchemes(page, `${path}, filters open`, found);
      }
      if (path === '/settings') {
        await page.getByRole('button', { name: 'Reset the recording sync…' }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await checkBothSchemes(page, `${path}, reset dialog`, found);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
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
