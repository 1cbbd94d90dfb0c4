import os from 'node:os';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { fillDisk, tmpfsUnavailable } from '../main/core/testing/tmpfs.js';
import { startBridge } from './bridge.js';

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
