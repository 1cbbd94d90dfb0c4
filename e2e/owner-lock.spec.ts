import { expect, test } from '@playwright/test';
import { startBridge, type Bridge } from './bridge.js';
import { slowShow, startRecordings, type RecEnv } from './recordings-fixture.js';

/**
 * One owner for both services: the recording sync started with the energy bridge's passcode gate,
 * both on 127.0.0.1 (one host, two ports), as `npm start` composes them.
 */
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

async function setPasscode(code: string): Promise<void> {
  const res = await fetch(`${bridge.url}/api/security/passcode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode: code }) });
  expect(res.status).toBe(200);
}

test('a write that answers 401 shows "Locked — unlock with the passcode"; unlocking there opens both services', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${rec.url}/history`);
  await expect(page.getByRole('button', { name: 'Sync now' })).toBeEnabled();
  // The owner sets the passcode on the energy bridge after this page loaded: the page does not know yet.
  await setPasscode('4711');
  await expect(page.getByTestId('locked-banner')).toHaveCount(0);
  await page.getByRole('button', { name: 'Sync now' }).click();
  const banner = page.getByTestId('locked-banner');
  await expect(banner).toContainText('Locked — unlock with the passcode');
  expect((await rec.api.get('/api/sync-runs')).body.runs).toEqual([]);

  await banner.getByLabel('Passcode').fill('1234');
  await banner.getByRole('button', { name: 'Unlock' }).click();
  await expect(banner).toContainText('Wrong passcode');
  await banner.getByLabel('Passcode').fill('4711');
  await banner.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByTestId('lock-status')).toContainText('Unlocked');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect.poll(async () => (await rec.api.get('/api/sync-runs')).body.runs.length).toBe(1);

  // The same browser on the energy bridge's port: its settings are unlocked too (the cookie is per host).
  await page.goto(`${bridge.url}/settings`);
  await expect(page.getByTestId('passcode-panel')).toContainText('Settings unlocked');
  // Locking there ends the session for the recordings pages as well.
  await page.getByTestId('passcode-panel').getByRole('button', { name: 'Lock now' }).click();
  await page.goto(`${rec.url}/`);
  await expect(page.getByTestId('locked-banner')).toContainText('Locked — unlock with the passcode');
});

test('the recordings setup offers the passcode as its last step, and it guards the energy bridge too', async ({ page }) => {
  await page.goto(`${rec.url}/setup`);
  for (const next of ['Media folder', 'Schedule', 'Shows', 'Passcode']) await page.getByRole('button', { name: `Next: ${next}` }).click();
  const step = page.locator('#setup-passcode');
  await expect(step).toContainText('Without a passcode anyone on your network');
  await step.getByLabel('Passcode (4 digits)').fill('8642');
  await step.getByRole('button', { name: 'Set passcode' }).click();
  await expect(page.getByTestId('passcode-note')).toContainText('Passcode set');
  await expect(page.getByTestId('lock-status')).toContainText('Unlocked');
  expect(bridge.service.security.passcodes.isSet).toBe(true);
  const guest = await fetch(`${bridge.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"battery":{"capacityKwh":5}}' });
  expect(guest.status).toBe(401);
  // A guest's recordings write is refused; this browser's still passes.
  expect((await rec.api.patch('/api/settings', { sync_cron: '0 * * * *' })).status).toBe(401);
});

test('without the energy bridge (standalone), no passcode step and no lock banner', async ({ page }) => {
  const alone = await startRecordings({ shows: [] });
  try {
    await page.goto(`${alone.url}/setup`);
    await page.getByRole('button', { name: 'Next: Media folder' }).click();
    await page.getByRole('button', { name: 'Next: Schedule' }).click();
    await page.getByRole('button', { name: 'Next: Shows' }).click();
    await expect(page.getByRole('button', { name: 'Next: Passcode' })).toHaveCount(0);
    await expect(page.getByTestId('locked-banner')).toHaveCount(0);
  } finally {
    await alone.stop();
  }
});
