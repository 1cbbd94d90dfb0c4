import { startGatewaySimulator } from '../main/energy/simulator/gateway-simulator.js';
import { firstRunOnLoopbackLan } from './bridge.js';
import { expect, test } from './fixtures.js';

test.describe('setup wizard', () => {
  test.use({ bridgeOptions: firstRunOnLoopbackLan });

  test('discovers the loopback gateway, tests it, saves the essentials and lands on a live dashboard', async ({ page, bridge }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Set up the gateway' }).click();
    await expect(page).toHaveURL(/\/setup$/);

    // The address is blank, so the scan starts by itself and fills the single match.
    await expect(page.getByTestId('scan-status')).toContainText('Found a gateway at 127.0.0.23', { timeout: 20_000 });
    await expect(page.getByLabel('Gateway address')).toHaveValue('127.0.0.23');
    await expect(page.getByLabel('Port', { exact: true })).toHaveValue(String(bridge.sim.port));

    const next = page.getByRole('button', { name: 'Next' });
    await expect(next).toBeDisabled();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('test-result')).toContainText(/Gateway answered in \d+ ms/);
    await next.click();

    await page.getByLabel('Battery capacity').fill('16.1');
    await page.getByLabel('Reserve level').fill('15');
    await page.getByLabel('Import rate').fill('0.31');
    await page.getByLabel('Feed-in rate').fill('0.05');
    await page.getByLabel('Daily supply charge').fill('1.10');
    // The place is asked for only when the outdoor temperature is wanted (it is only used for that);
    // the box stays off here, so nothing is looked up on the internet.
    await expect(page.getByLabel('Place', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Save and continue' }).click();
    // The optional last step: no passcode this time.
    await expect(page.getByTestId('setup-passcode')).toContainText('anyone on your network');
    await page.getByRole('button', { name: 'Finish without a passcode' }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
    await expect(page.getByTestId('battery-reserve')).toHaveText('15%');
    const s = bridge.service.settings.get();
    expect(s.gateway).toMatchObject({ host: '127.0.0.23', port: bridge.sim.port });
    expect(s.battery).toEqual({ capacityKwh: 16.1, reserveSoc: 15 });
    expect(s.tariff).toMatchObject({ importRate: 0.31, feedInRate: 0.05, dailySupplyCharge: 1.1 });
    expect(s.weather.enabled).toBe(false);
  });

  test('several gateways found: the wizard lists them all and the one picked is the one tested and saved', async ({ page, bridge }) => {
    // A second gateway on the same loopback /24 and port as the first (the scan sees 127.0.0.0/24).
    const other = await startGatewaySimulator({ firmware: 'V2.9', host: '127.0.0.42', port: bridge.sim.port, initialSoc: 40 });
    try {
      await page.goto('/setup');
      const pick = page.getByTestId('scan-status');
      await expect(pick).toContainText('Found 2 gateways: pick yours', { timeout: 30_000 });
      const radios = pick.getByRole('radio');
      await expect(radios).toHaveCount(2);
      await expect(pick).toContainText(`127.0.0.23:${bridge.sim.port}`);
      await expect(pick).toContainText(new RegExp(`127\\.0\\.0\\.42:${bridge.sim.port} · battery 40(\\.\\d)?%`));
      // Nothing is chosen for the user.
      await expect(page.getByLabel('Gateway address')).toHaveValue('');
      await page.getByRole('radio', { name: /127\.0\.0\.42/ }).check();
      await expect(page.getByLabel('Gateway address')).toHaveValue('127.0.0.42');
      await expect(page.getByLabel('Port', { exact: true })).toHaveValue(String(bridge.sim.port));
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(page.getByTestId('test-result')).toContainText(/Gateway answered in \d+ ms/);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await expect(page.getByTestId('setup-passcode')).toBeVisible();
      expect(bridge.service.settings.get().gateway).toMatchObject({ host: '127.0.0.42', port: bridge.sim.port });
    } finally {
      await other.close();
    }
  });

  test('a value the bridge refuses is shown by its field and nothing is saved', async ({ page, bridge }) => {
    await page.goto('/setup');
    await expect(page.getByLabel('Gateway address')).toHaveValue('127.0.0.23', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Reserve level').fill('150');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByLabel('Reserve level')).toHaveAccessibleDescription(/Reserve level must be at most 100%\./);
    await expect(page).toHaveURL(/\/setup$/);
    expect(bridge.service.settings.get().gateway.host).toBe('');
  });

  test('the last step sets the passcode: the bridge is then locked to others and this browser stays unlocked', async ({ page, bridge }) => {
    await page.goto('/setup');
    await expect(page.getByLabel('Gateway address')).toHaveValue('127.0.0.23', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Battery capacity').fill('10');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    const step = page.getByTestId('setup-passcode');
    await step.getByLabel('Passcode (4 digits)').fill('2580');
    await step.getByRole('button', { name: 'Set passcode and finish' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(bridge.service.security.passcodes.isSet).toBe(true);
    // Another client (no session) is refused; this browser is still unlocked in Settings.
    const guest = await fetch(`${bridge.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"battery":{"capacityKwh":5}}' });
    expect(guest.status).toBe(401);
    await page.goto('/settings');
    await expect(page.getByTestId('passcode-panel')).toContainText('Settings unlocked');
  });
});
