import { expect, test } from './fixtures.js';
import { openSection } from './settings-sections.js';

test.describe('settings', () => {
  test('a locked settings page refuses changes until unlocked with the passcode', async ({ page, bridge }) => {
    // The gate is open until a passcode is set; the owner set one from another device (not this
    // browser: setting it keeps the setter's own browser unlocked through the session cookie).
    const set = await fetch(`${bridge.url}/api/security/passcode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode: '2468' }) });
    expect(set.ok).toBe(true);

    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: /Settings are locked/ })).toBeVisible();
    await expect(page.getByTestId('locked-banner')).toBeVisible();
    const gateway = page.getByTestId('settings-gateway');
    const host = gateway.getByLabel('Gateway address');
    await expect(host).toHaveValue(''); // hidden while locked
    await expect(host).toBeDisabled();
    await expect(gateway.getByRole('button', { name: 'Save gateway' })).toBeDisabled();
    // The server refuses a change without a session as well.
    expect((await page.request.put('/api/settings', { data: { polling: { intervalMs: 2000 } } })).status()).toBe(401);

    const passcode = page.getByLabel('Passcode', { exact: true });
    await passcode.fill('1111');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect(page.getByText(/Wrong passcode; 4 tries left/)).toBeVisible();

    await passcode.fill('2468');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect(page.getByRole('heading', { name: /Settings unlocked/ })).toBeVisible();
    await expect(host).toHaveValue(bridge.sim.host);
    await expect(host).toBeEnabled();

    const polling = await openSection(page, 'Polling');
    // Shown in seconds (stored in ms).
    await polling.getByLabel('Poll interval').fill('2');
    await polling.getByRole('button', { name: 'Save polling' }).click();
    await expect(page.getByTestId('status-polling')).toHaveText('Saved. Changes apply now.');
    expect(bridge.service.settings.get().polling.intervalMs).toBe(2000);

    await page.getByRole('button', { name: 'Lock now' }).click();
    await expect(page.getByRole('heading', { name: /Settings are locked/ })).toBeVisible();
    await expect(polling.getByLabel('Poll interval')).toBeDisabled();
  });

  test('a bad value is refused in plain words by the field; restart-only fields say so', async ({ page, bridge }) => {
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Passcode' })).toBeVisible();
    const gateway = page.getByTestId('settings-gateway');
    const port = gateway.getByLabel('Port');
    await port.fill('70000');
    await gateway.getByRole('button', { name: 'Save gateway' }).click();
    await expect(port).toHaveAttribute('aria-invalid', 'true');
    // The message sits in the port's own field and is its accessible description.
    await expect(port).toHaveAccessibleDescription(/^Port must be at most 65535\./);
    await expect(gateway.locator('.field', { has: page.locator('input[aria-invalid="true"]') }).locator('.error')).toHaveText('Port must be at most 65535.');
    await expect(gateway).not.toContainText('expected number');
    expect(bridge.service.settings.get().gateway.port).toBe(bridge.sim.port);

    // Back to the saved value: nothing to save, so Save is off again.
    await port.fill(String(bridge.sim.port));
    await expect(gateway.getByRole('button', { name: 'Save gateway' })).toBeDisabled();
    await gateway.getByLabel('Port').fill('503');
    await gateway.getByRole('button', { name: 'Save gateway' }).click();
    await expect(page.getByTestId('status-gateway')).toContainText('Saved');
    await expect(port).toHaveAttribute('aria-invalid', 'false');
    await port.fill(String(bridge.sim.port));
    await gateway.getByRole('button', { name: 'Save gateway' }).click();
    await expect(page.getByTestId('status-gateway')).toContainText('Saved');

    const general = await openSection(page, 'General');
    await expect(general.locator('.badge', { hasText: 'applies after restart' })).toBeVisible();
    await general.getByLabel(/Server port/).fill('5299');
    await general.getByRole('button', { name: 'Save general' }).click();
    // Named as the form names the field (its label from the schema), never by its API path.
    await expect(page.getByTestId('status-general')).toContainText('Restart the bridge to apply: Server port.');
    await expect(page.getByTestId('status-general')).not.toContainText('general.');
    await expect(page.getByTestId('restart-banner')).toContainText('General › Server port');
    await expect(general.locator('.badge.restart', { hasText: 'restart required' })).toBeVisible();

    // The gateway test button probes the address being edited.
    await openSection(page, 'Gateway');
    await gateway.getByRole('button', { name: 'Test connection' }).click();
    await expect(gateway.getByText(/Gateway answered in \d+ ms/)).toBeVisible();
    // Finding inverters again runs in the background and answers at once.
    await gateway.getByRole('button', { name: 'Find inverters again' }).click();
    await expect(gateway.getByText(/in the background; new inverters appear on the dashboard/)).toBeVisible();
    // HomeKit pairing: the code, the QR, a how-to, and (HomeKit off here) how to turn it on.
    const homekit = await openSection(page, 'HomeKit');
    await homekit.getByRole('button', { name: 'Show pairing code' }).click();
    await expect(homekit.getByTestId('homekit-pin')).toHaveText(/^\d{3}-\d{2}-\d{3}$/);
    await expect(homekit.getByRole('img', { name: /HomeKit pairing QR code/ })).toBeVisible();
    await expect(homekit.getByTestId('homekit-howto')).toContainText('Add Accessory');
    await expect(homekit.getByTestId('homekit-state')).toContainText('HomeKit is off');
  });
});
