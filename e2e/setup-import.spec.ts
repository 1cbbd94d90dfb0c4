import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../main/core/clock.js';
import { hashTree, sigenFacts, sigenFolderCopy } from '../main/energy/import/testing/sigen-fixture.js';
import { firstRunOnLoopbackLan } from './bridge.js';
import { expect, test } from './fixtures.js';
import { freePort } from '../main/core/testing/free-port.js';

/**
 * The first-run wizard's "Coming from sigen-home-bridge?" path, from a folder written by the real
 * program to the dashboard. The service's clock runs an hour after that program's last row, so
 * every row is inside the imported 30-day retention whatever day the test runs.
 */
const offset = sigenFacts.history.max_t + 3_600_000 - Date.now();
/** `UPDATE_SCREENSHOTS=1` writes the preview's screenshot to docs/screenshots (see screenshots.spec.ts). */
const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.resolve(import.meta.dirname, '..', 'docs', 'screenshots') : path.resolve(import.meta.dirname, '..', 'test-results', 'screenshots');


test.describe('setup wizard: import from sigen-home-bridge', () => {
  test.use({
    bridgeOptions: {
      ...firstRunOnLoopbackLan,
      deps: (sim) => ({ ...firstRunOnLoopbackLan.deps!(sim), clock: { ...systemClock, now: () => Date.now() + offset } }),
    },
  });

  test('folder → preview (counts, settings, what cannot be carried) → import with progress → dashboard', async ({ page, bridge }) => {
    const src = sigenFolderCopy();
    // Its gateway was a simulator on loopback when the folder was written; here it is this test's.
    const settingsFile = path.join(src, 'settings.json');
    const theirs = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    // Its HomeKit bridge comes up at once after the import: on a free loopback port of this test's.
    const homekitPort = await freePort();
    fs.writeFileSync(settingsFile, JSON.stringify({ ...theirs, sigen: { ...theirs.sigen, host: bridge.sim.host, port: bridge.sim.port }, homekit: { ...theirs.homekit, port: homekitPort } }, null, 2));
    const before = hashTree(src);
    try {
      await page.goto('/setup');
      await page.getByRole('button', { name: 'Import from sigen-home-bridge' }).click();

      // A folder that is not its folder is refused beside the field.
      const folder = page.getByLabel('sigen-home-bridge data folder');
      await folder.fill(path.join(src, 'hap-persist'));
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect(folder).toHaveAccessibleDescription(/is not a sigen-home-bridge data folder/);

      await folder.fill(src);
      await page.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByTestId('import-preview');
      await expect(preview).toContainText(`history.db: ${sigenFacts.history.rows.toLocaleString('en-US')} rows`);
      await expect(preview).toContainText(`history.json.imported: ${sigenFacts.legacy_history.rows.toLocaleString('en-US')} rows`);
      await expect(preview).toContainText(/\d+ settings carried \(.*gateway.*tariff.*alerts.*homekit/);
      await expect(page.getByTestId('import-passcode')).toContainText('the same passcode unlocks the settings here');
      await expect(page.getByTestId('import-homekit')).toContainText(`“${sigenFacts.homekit.bridge_name}” keeps its identity and its 1 paired Home app`);
      const notCarried = page.getByTestId('import-not-carried');
      await expect(notCarried).toContainText('poll.schedule');
      await expect(notCarried).toContainText(/Hot outside.*outdoor temperature/);
      await page.mouse.move(0, 0);
      await page.screenshot({ path: path.join(SHOTS, 'setup-import-desktop.png'), fullPage: true });
      // Nothing is written by a preview.
      expect(bridge.service.settings.get().gateway.host).toBe('');

      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(page.getByTestId('import-result')).toContainText(`Imported from ${src}: ${sigenFacts.history.rows} history rows added`, { timeout: 30_000 });
      await page.getByRole('button', { name: 'Open the dashboard' }).click();

      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
      await expect(page.getByTestId('battery-reserve')).toHaveText(`${(sigenFacts.settings_json_stored as { battery: { reserveSoc: number } }).battery.reserveSoc}%`);
      const s = bridge.service.settings.get();
      expect(s.gateway).toMatchObject({ host: bridge.sim.host, port: bridge.sim.port });
      expect(s.homekit).toMatchObject({ enabled: true, pin: sigenFacts.homekit.pin, bridgeName: sigenFacts.homekit.bridge_name, port: homekitPort });
      // Its HomeKit bridge is up under the old identity, paired, without a restart.
      // (The bridge reloads HomeKit in the background after the import: on a busy machine, give it time.)
      const pairing = () => page.evaluate(async () => (await fetch('/api/homehub/pairing', { headers: { authorization: `Bearer ${sessionStorage.getItem('energy.sessionToken')}` } })).json()) as Promise<{ running: boolean; paired: boolean; setupUri: string; error: string | null }>;
      // (`error` is in the expectation so that a bridge that could not start says why.)
      await expect.poll(pairing, { timeout: 60_000 }).toMatchObject({ running: true, paired: true, error: null, setupUri: (sigenFacts.homekit as { setup_uri?: string }).setup_uri });
      expect(bridge.service.security.passcodes.isSet).toBe(true);
      const stats = (await (await fetch(`${bridge.url}/api/history/stats`)).json()) as { count: number; firstT: number; lastT: number };
      // Every imported row, plus the polls since the gateway came up.
      expect(stats.firstT).toBe(sigenFacts.history.min_t);
      expect(stats.count).toBeGreaterThanOrEqual(sigenFacts.history.rows);
      expect(hashTree(src)).toEqual(before);
    } finally {
      fs.rmSync(src, { recursive: true, force: true });
    }
  });
});
