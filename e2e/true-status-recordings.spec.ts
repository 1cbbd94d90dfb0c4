import fs from 'node:fs';
import { copyFixture, fixtureAvailable } from '../main/recordings/import/testing.js';
import { startBridge, type Bridge } from './bridge.js';
import { expect, slowShow, startRecordings, test, type RecEnv } from './recordings-fixture.js';

/**
 * Issue 42, "Messages that are false" on the recordings pages: the media server is "connected" only
 * after it answered, runs are listed by when they ran (an imported one marked), a running sync says
 * what it is doing, the header agrees with the page, and a locked page offers the unlock form rather
 * than API words.
 */

test.describe('a running sync', () => {
  test.use({ recOptions: { shows: [slowShow('Slow Show', 870000001, 2, 60, 4_000_000)], follow: [{ name: 'slow show', dest_folder: 'Slow' }] } });

  test('the header turns to "Syncing" with the page, and the run says it is downloading, not "nothing new"', async ({ page }) => {
    await page.goto('/history');
    const chip = page.getByTestId('header-sync-status');
    await expect(chip).toHaveText('Idle');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByText('Sync #1 started')).toBeVisible();
    // The header polls every minute while idle: it must not wait for that to agree with the page.
    await expect(chip).toHaveText('Syncing · #1', { timeout: 10_000 });

    await page.getByRole('link', { name: 'Overview' }).first().click();
    const recent = page.getByTestId('recent-syncs').locator('[data-run-id="1"]');
    await expect(recent).toContainText('running');
    await expect(recent).toContainText('downloading 1 now');
    await expect(recent).not.toContainText('nothing new');
  });
});

test.describe('after a fetcharr import', () => {
  test.use({ recOptions: { shows: [], configured: false } });

  test('the media server reads "not answering" when nothing listens, and today\'s run stays the last sync above the imported one', async ({ page, rec }) => {
    test.skip(!fixtureAvailable(), 'the fetcharr anchor fixture is not available');
    // Today's run first (nothing followed yet: it finds nothing), then the import of fetcharr's three-day-old run.
    const ours = await rec.api.post('/api/sync', {});
    expect(ours.status).toBe(202);
    await expect.poll(async () => (await rec.api.get('/api/sync')).body.running, { timeout: 15_000 }).toBeNull();
    const copy = copyFixture();
    try {
      const imported = await rec.api.post('/api/import', { dir: copy.config, media_root_from: '/media', media_root_to: copy.media });
      expect(imported.status).toBe(200);
      const runs = (await rec.api.get('/api/sync-runs')).body.runs as Array<{ id: number; summary: { imported_from?: string } }>;
      expect(runs.map((r) => r.summary.imported_from ?? 'ours')).toEqual(['ours', 'fetcharr']);
      const importedId = runs[1]!.id;
      expect(importedId).toBeGreaterThan(runs[0]!.id);

      await page.goto('/');
      // fetcharr's media server address (127.0.0.1:18403): nothing listens there in this test.
      const media = page.getByTestId('tile-media');
      await expect(media.getByTestId('media-state')).toHaveText('not answering');
      await expect(media).toContainText('no HTTP answer from 127.0.0.1:18403');
      await expect(media).not.toContainText('connected');
      // The box tile beside it agrees: the imported box address does not answer either.
      await expect(page.getByTestId('tile-box')).toContainText('not answering');

      const last = page.getByTestId('last-sync');
      await expect(last).toContainText(`Last sync #${runs[0]!.id},`);
      await expect(last.getByTestId('last-sync-imported')).toHaveCount(0);
      const items = page.getByTestId('recent-syncs').locator('li');
      await expect(items.nth(0)).toHaveAttribute('data-run-id', String(runs[0]!.id));
      await expect(items.nth(1)).toHaveAttribute('data-run-id', String(importedId));
      await expect(items.nth(1)).toContainText('imported from fetcharr');
    } finally {
      fs.rmSync(copy.root, { recursive: true, force: true });
    }
  });
});

test.describe('locked', () => {
  let bridge: Bridge;
  let rec: RecEnv;
  test.beforeEach(async () => {
    bridge = await startBridge({ configured: true, simHour: 12 });
    rec = await startRecordings({ shows: [slowShow('Owner Show', 880000001, 1, 1, 200_000)], follow: [{ name: 'owner show', dest_folder: 'Owner' }], owner: bridge.service.owner });
  });
  test.afterEach(async () => {
    await rec?.stop();
    await bridge?.stop();
  });
  const setPasscode = async (code: string) => {
    const res = await fetch(`${bridge.url}/api/security/passcode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode: code }) });
    expect(res.status).toBe(200);
  };

  test('Sync now is disabled and points to the unlock form; no API words on the page', async ({ page }) => {
    await setPasscode('4711');
    await page.goto(`${rec.url}/`);
    await expect(page.getByTestId('locked-banner')).toContainText('Locked — unlock with the passcode');
    const sync = page.getByRole('button', { name: 'Sync now' });
    await expect(sync).toBeDisabled();
    await expect(page.getByTestId('sync-locked-note')).toHaveText('Unlock with the passcode above to sync.');

    await page.getByTestId('locked-banner').getByLabel('Passcode').fill('4711');
    await page.getByTestId('locked-banner').getByRole('button', { name: 'Unlock' }).click();
    await expect(sync).toBeEnabled();
    await expect(page.getByTestId('sync-locked-note')).toHaveCount(0);
  });

  test('a page that learns of the lock only from a refused write shows the unlock form, not the API message', async ({ page }) => {
    await page.goto(`${rec.url}/`);
    const sync = page.getByRole('button', { name: 'Sync now' });
    await expect(sync).toBeEnabled();
    await setPasscode('4711');
    await sync.click();
    await expect(page.getByTestId('locked-banner')).toContainText('Locked — unlock with the passcode');
    await expect(sync).toBeDisabled();
    const body = page.locator('body');
    await expect(body).not.toContainText('/api/unlock');
    await expect(body).not.toContainText('Bearer');
    expect((await rec.api.get('/api/sync-runs')).body.runs).toEqual([]);
  });
});
