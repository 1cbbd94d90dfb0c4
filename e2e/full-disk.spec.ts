import os from 'node:os';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { fillDisk, tmpfsUnavailable } from '../main/core/testing/tmpfs.js';
import { startBridge } from './bridge.js';
import { testDataDir } from '../main/recordings/testing/harness.js';
import { startRecordings } from './recordings-fixture.js';

const cannotMount = tmpfsUnavailable(os.tmpdir());

test('the dashboard says when history is not being saved (a full data disk), and the banner goes once space is freed', async ({ page }) => {
  test.skip(cannotMount !== null, `needs a tmpfs data folder: ${cannotMount}`);
  const bridge = await startBridge({ configured: true, simHour: 12, tmpfsDataDir: '6m' });
  try {
    await page.goto(`${bridge.url}/`);
    await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
    await expect(page.getByTestId('storage-error')).toHaveCount(0);
    const filler = fillDisk(bridge.dataDir);
    const banner = page.getByTestId('storage-error');
    await expect(banner).toContainText('History is not being saved');
    await expect(banner).toContainText('disk holding the data folder is full');
    fs.rmSync(filler);
    await expect(banner).toHaveCount(0);
  } finally {
    await bridge.stop();
  }
});

test('the recordings pages say what needs attention when the data folder’s disk is full, and stop once space is freed', async ({ page }) => {
  test.skip(cannotMount !== null, `needs a tmpfs data folder: ${cannotMount}`);
  const rec = await startRecordings({ shows: [], tmpfs: '6m' });
  try {
    // A small disk: keep no free-space margin for media, so only the full disk is reported.
    expect((await rec.api.patch('/api/settings', { free_space_margin_mb: 0 })).status).toBe(200);
    await page.goto(`${rec.url}/`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('health-banner')).toHaveCount(0);
    const filler = fillDisk(rec.dir);
    await page.reload();
    await expect(page.getByTestId('health-banner')).toContainText(`the disk holding the data folder ${testDataDir(rec.dir)} is full`);
    fs.rmSync(filler);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('health-banner')).toHaveCount(0);
  } finally {
    await rec.stop();
  }
});
