import { expect, test } from './fixtures.js';

/** The dashboard's battery control card against the bridge and its simulated gateway (docs/battery-control.md). */
test.describe('battery control card', () => {
  test('off by default; turned on it shows the dry-run mode in words, and the kill switch puts it back to Automatic', async ({ page, bridge }) => {
    await page.goto('/');
    await expect(page.getByTestId('control-off')).toContainText('Off: the plant runs on its own');

    // The owner (this PC) turns it on and asks for a charge: a dry run, nothing written.
    const put = await fetch(`${bridge.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ control: { enabled: true } }) });
    expect(put.status).toBe(200);
    const mode = await fetch(`${bridge.url}/api/control/mode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'charge', targetSoc: 95, powerW: 2500 }) });
    expect(mode.status).toBe(200);

    await page.reload();
    await expect(page.getByTestId('control-mode')).toHaveText('The battery charges from the grid at up to 2500 W until it reaches 95 %, until you change it.');
    await expect(page.locator('#control')).toContainText('Dry run: the plan and its writes are shown and logged, nothing is written.');
    await page.getByTestId('control-kill').click();
    await expect(page.getByTestId('control-mode')).toHaveText('The plant runs on its own again: remote control off, your previous limits put back.');
    expect(bridge.sim.plant.control.writes).toHaveLength(0);
  });
});
