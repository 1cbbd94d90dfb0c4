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

    // Every decision is listed, with its registers, and the whole log is a download.
    await page.getByText('Every decision and write').click();
    const all = page.getByTestId('audit-entries');
    await expect(all.locator(':scope > li')).toHaveCount(2);
    await expect(all.locator(':scope > li').nth(1)).toContainText('dry-run · by owner: The battery charges from the grid at up to 2500 W');
    await expect(all).toContainText('chargeLimitW (40032 = 2500, was 5000, not written)');
    const download = await fetch(`${bridge.url}${await page.getByTestId('audit-download').getAttribute('href')}`);
    expect((await download.text()).trim().split('\n')).toHaveLength(2);
  });

  test('the backup and cut-off SOCs are shown as the plant holds them and the owner sets them', async ({ page, bridge }) => {
    const put = await fetch(`${bridge.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ control: { enabled: true, dryRun: false, staleAfterPolls: 20 } }) });
    expect(put.status).toBe(200);
    await page.goto('/');
    await expect(page.getByTestId('reserve-backupSoc')).toHaveValue('10');
    await expect(page.getByTestId('reserve-chargeCutoffSoc')).toHaveValue('100');
    await expect(page.getByTestId('reserve-dischargeCutoffSoc')).toHaveValue('5');

    // A discharge cut-off below the owner's lowest charge (20 %): the server's message by the field, nothing written.
    await page.getByTestId('reserve-dischargeCutoffSoc').fill('15');
    await page.getByTestId('reserve-save').click();
    await expect(page.getByTestId('reserve')).toContainText('must not be below your lowest SOC (20 %)');
    await page.getByTestId('reserve-dischargeCutoffSoc').fill('5');
    await page.getByTestId('reserve-backupSoc').fill('30');
    await page.getByTestId('reserve-save').click();
    await expect(page.getByTestId('reserve')).toContainText('Set backup SOC 30 %');
    expect(bridge.sim.plant.control.values.backupSoc).toBe(30);
    expect(bridge.sim.plant.control.writes.map((w) => w.address)).toEqual([40046]);
  });
});
