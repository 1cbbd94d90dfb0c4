import { test, expect } from './fixtures.js';

test.describe('HomeKit pairing in the settings', () => {
  test('resetting the pairing asks in the page first; Cancel sends nothing, Reset pairing sends the reset', async ({ page }) => {
    test.setTimeout(90_000);
    const resets: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/homehub/pairing/reset')) resets.push(r.url());
    });
    // A native confirm would block here: the page must not use one.
    page.on('dialog', (d) => {
      throw new Error(`unexpected browser dialog: ${d.message()}`);
    });
    await page.goto('/settings#homekit');
    await page.getByRole('button', { name: 'Show pairing code' }).click();
    await expect(page.getByTestId('homekit-pin')).toBeVisible();

    await page.getByRole('button', { name: 'Reset pairing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget every paired Home app?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('must add it again');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(resets).toEqual([]);

    await page.getByRole('button', { name: 'Reset pairing' }).click();
    await page.getByRole('dialog', { name: 'Forget every paired Home app?' }).getByRole('button', { name: 'Reset pairing' }).click();
    await expect.poll(() => resets.length).toBe(1);
  });

  test('while the settings are locked, the pairing button says why it cannot be used', async ({ page, bridge }) => {
    const res = await fetch(`${bridge.url}/api/security/passcode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode: '4711' }) });
    expect(res.status).toBeLessThan(300);
    await page.goto('/settings#homekit');
    const show = page.getByRole('button', { name: 'Show pairing code' });
    await expect(show).toBeDisabled();
    await expect(show).toHaveAccessibleDescription('Unlock the settings with the passcode to see or reset the pairing.');
  });
});
