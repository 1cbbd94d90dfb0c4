import { createManualClock } from '../main/core/clock.js';
import { systemTimeZone } from '../main/core/time-zone.js';
import { demoControlSettings, demoSky, FOLLOW_THE_PRICE } from '../main/energy/demo/control.js';
import { startAmberSimulator } from '../main/energy/prices/amber-simulator.js';
import { nextPoll } from '../main/energy/testing/harness.js';
import { todayAt } from './bridge.js';
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

/**
 * The demo's price-following day on the card (docs/battery-control.md, "In the demo"): the bridge on a
 * manual clock with the demo's control settings and overcast plant, the Amber simulator's day on
 * the same wall clock; the test polls it from 09:00 to 21:30 and the card shows the plan and the saving.
 */
const POLL = 5 * 60_000;
const dayStart = todayAt(9);
const dayClock = createManualClock(dayStart);
test.describe('the demo’s price-following day', () => {
  test.use({
    bridgeOptions: {
      configured: true,
      simHour: 9,
      plant: { initialSoc: 60, skyClear: demoSky(dayStart) },
      settings: { polling: { intervalMs: POLL }, ...demoControlSettings() },
      deps: () => ({ clock: dayClock }),
    },
  });

  test('the card shows the next step of the plan and what following the price saved today', async ({ page, bridge }) => {
    test.setTimeout(120_000);
    const amber = await startAmberSimulator({ now: () => dayClock.now(), intervalMinutes: 30, timeZone: systemTimeZone() });
    try {
      const put = await fetch(`${bridge.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prices: { source: 'amber', amber: { token: amber.token, siteId: amber.siteId, baseUrl: amber.url } } }) });
      expect(put.status).toBe(200);
      await nextPoll(bridge.service, dayClock, 0);
      await expect.poll(async () => (await (await fetch(`${bridge.url}/api/prices`)).json()).current !== null).toBe(true);
      const follow = await fetch(`${bridge.url}${FOLLOW_THE_PRICE.url}`, { method: FOLLOW_THE_PRICE.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(FOLLOW_THE_PRICE.payload) });
      expect(follow.status).toBe(200);
      while (dayClock.now() < todayAt(21.5)) {
        bridge.setSimTime(dayClock.now() + POLL);
        await nextPoll(bridge.service, dayClock, POLL);
        while (((await bridge.service.app.inject({ url: '/api/control' })).json() as { busy: boolean }).busy) await new Promise((r) => setTimeout(r, 5));
      }
      const status = (await (await fetch(`${bridge.url}/api/control`)).json()) as { today: { saved: number | null } };
      expect(status.today.saved).toBeGreaterThan(1);

      await page.goto('/');
      await expect(page.getByTestId('control-mode')).toHaveText('The battery follows the price plan: it charges in the cheapest hours, holds for the dearest and limits export while feed-in costs money.');
      await expect(page.getByTestId('control-next')).toContainText('the cheapest hours before the 17:00 peak');
      const today = page.getByTestId('control-today');
      await expect(today).toContainText(/^Today: charged \d+\.\d\d kWh from the grid at −4\.0 c\/kWh; the battery gave the house \d+\.\d\d kWh in the peak at \d+\.\d c\/kWh: saved /);
      await expect(today).toContainText(`saved A$${status.today.saved!.toFixed(2)}.`);
      await expect(page.locator('#control')).toContainText('How it is worked out');
    } finally {
      await amber.close();
    }
  });
});
