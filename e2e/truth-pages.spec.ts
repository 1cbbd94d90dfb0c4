import { test as base } from '@playwright/test';
import { startBridge, type Bridge } from './bridge.js';
import { expect, test } from './fixtures.js';
import { slowShow, startRecordings, type RecEnv } from './recordings-fixture.js';
import { openSection } from './settings-sections.js';

/**
 * Issue 42, part 1: no API words on a page (labels, units and hints from the server's schema; badges
 * beside a label, not in it; locked pages disable what needs a session, each control saying why)
 * and no dead ends (both wizards end on a Finish that lands somewhere; a disabled Next says why; a
 * locked setup asks nothing the server refuses; the save bar never covers what it saved).
 */

test.describe('first run', () => {
  test.use({ bridgeOptions: { configured: false, simHour: 12 } });

  test('energy setup: Next is disabled with its reason until the gateway answered a test', async ({ page, bridge }) => {
    await page.goto('/setup');
    const next = page.getByRole('button', { name: 'Next' });
    await expect(next).toBeDisabled();
    await expect(next).toHaveAccessibleDescription(/test( the)? connection/i);
    await page.getByLabel('Gateway address').fill(bridge.sim.host);
    await page.getByLabel('Port', { exact: true }).fill(String(bridge.sim.port));
    await expect(next).toHaveAccessibleDescription('Press Test connection first: Next opens once the gateway answers.');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('test-result')).toContainText('Gateway answered');
    await expect(next).toBeEnabled();
    await expect(page.getByTestId('gateway-next-why')).toHaveCount(0);
  });
});

test('energy settings: labels and units from the schema, no "Edited as JSON", Save names the section as written', async ({ page }) => {
  await page.goto('/settings');
  const gateway = await openSection(page, 'Gateway');
  // The schema's label ("Search timeout"), not the key ("Probe timeout"), with its unit beside the number.
  const probe = gateway.getByLabel('Search timeout', { exact: true });
  await expect(probe).toHaveValue('0.25');
  await expect(probe.locator('xpath=..')).toHaveText('s'); // the .with-unit span: the input and its unit
  await expect(gateway).not.toContainText('Probe timeout');

  const homekit = await openSection(page, 'HomeKit');
  await expect(homekit.getByRole('button', { name: 'Save HomeKit' })).toBeVisible();
  await expect(homekit).not.toContainText('Edited as JSON');
  // "applies after restart" is a badge beside the label: the field's name is the label alone.
  await expect(homekit.getByLabel('HomeKit port', { exact: true })).toBeVisible();

  // A hint says a thing once: the schema's "Leave it blank to use …" is not followed by "Leave blank for automatic.".
  const battery = await openSection(page, 'Battery');
  await expect(battery.getByLabel('Reserve level', { exact: true })).toHaveAccessibleDescription('The charge kept back for a power cut, in %. Leave it blank to use the reserve set on the battery.');

  const mqtt = await openSection(page, 'MQTT (Home Assistant)');
  await expect(mqtt.getByRole('button', { name: 'Save MQTT (Home Assistant)' })).toBeVisible();
  await expect(mqtt.getByLabel('MQTT broker', { exact: true })).toBeVisible();
  await expect(mqtt.getByLabel('Send every', { exact: true })).toBeVisible();
  await expect(mqtt).not.toContainText(/\bUrl\b|Publish interval seconds/);
});

test('HomeKit network connections: a choice of all or only these addresses, a list with add and remove, no JSON box', async ({ page, bridge }) => {
  await page.goto('/settings');
  const homekit = await openSection(page, 'HomeKit');
  const field = homekit.getByTestId('homekit-bind');
  await expect(homekit.locator('textarea')).toHaveCount(0);
  await expect(field.getByRole('radio', { name: 'All network connections' })).toBeChecked();
  await field.getByRole('radio', { name: 'Only these addresses' }).check();
  await field.getByLabel('Address 1', { exact: true }).fill('127.0.0.1');
  await field.getByRole('button', { name: 'Add address' }).click();
  await field.getByLabel('Address 2', { exact: true }).fill('lo');
  await field.getByRole('button', { name: 'Remove address 2' }).click();
  await homekit.getByRole('button', { name: 'Save HomeKit' }).click();
  await expect(page.getByTestId('status-homekit')).toContainText('Saved. Restart the bridge to apply: Network connections.');
  const saved = async () => ((await (await fetch(`${bridge.url}/api/settings`)).json()) as { homekit: { bind: string[] } }).homekit.bind;
  expect(await saved()).toEqual(['127.0.0.1']);
  // Back to every connection: the server's empty list.
  await field.getByRole('radio', { name: 'All network connections' }).check();
  await expect(field.getByLabel('Address 1', { exact: true })).toHaveCount(0);
  await homekit.getByRole('button', { name: 'Save HomeKit' }).click();
  await expect.poll(saved).toEqual([]);
});

test.describe('the save bar', () => {
  test.use({ viewport: { width: 1280, height: 520 } });

  test('"Saved. Changes apply now." shows in the sticky bar, never under it', async ({ page }) => {
    await page.goto('/settings');
    const gateway = await openSection(page, 'Gateway');
    await gateway.getByRole('heading', { name: 'Gateway' }).scrollIntoViewIfNeeded();
    await gateway.getByLabel('Reply timeout', { exact: true }).fill('2');
    await gateway.getByRole('button', { name: 'Save gateway' }).click();
    const status = page.getByTestId('status-gateway');
    await expect(status).toHaveText('Saved. Changes apply now.');
    await expect(status).toBeInViewport();
    // Nothing is painted over it: the topmost element at its centre is the message itself.
    const box = (await status.boundingBox())!;
    const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-testid="status-gateway"]') !== null, [box.x + box.width / 2, box.y + box.height / 2]);
    expect(onTop).toBe(true);
  });
});

base.describe('recordings', () => {
  base('labels, hints and units come from the schema: one name per setting, badges beside the label', async ({ page }) => {
    const rec = await startRecordings({ shows: [] });
    try {
      await page.goto(`${rec.url}/settings`);
      await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'MQTT (Home Assistant)', exact: true }).click();
      const mqtt = page.getByTestId('settings-mqtt');
      const every = mqtt.getByLabel('Send every', { exact: true });
      await expect(every).toBeVisible();
      await expect(every.locator('xpath=..')).toHaveText('s');
      // The hint is the schema's description, said once.
      await expect(mqtt).toContainText('How often, in seconds, the status is sent.');
      await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Media library', exact: true }).click();
      // A setting at its default wears a "default" badge beside its label, not inside its name.
      const media = page.getByTestId('settings-library');
      await expect(media.getByLabel('Media folder', { exact: true })).toBeVisible();
      await expect(media.locator('.field-badges .badge').first()).toBeVisible();
    } finally {
      await rec.stop();
    }
  });

  base('the setup wizard follows shows inside it and ends on Finish, at the Overview', async ({ page }) => {
    const rec = await startRecordings({ shows: [slowShow('Wizard Show', 890000001, 1, 1, 100_000)] });
    try {
      await page.goto(`${rec.url}/setup`);
      for (const next of ['Media folder', 'Schedule', 'Shows']) await page.getByRole('button', { name: `Next: ${next}` }).click();
      const step = page.locator('#setup-shows');
      await step.getByRole('button', { name: 'Load shows from the box' }).click();
      await step.getByRole('button', { name: 'Follow Wizard Show' }).click();
      await step.getByRole('button', { name: 'Follow show' }).click();
      await expect(step.getByTestId('followed-shows')).toContainText('Wizard Show');
      expect((await rec.api.get('/api/shows')).body.shows).toHaveLength(1);
      await page.getByRole('button', { name: 'Finish' }).click();
      await expect(page).toHaveURL(`${rec.url}/`);
      await expect(page.getByRole('button', { name: 'Sync now' })).toBeEnabled();
    } finally {
      await rec.stop();
    }
  });
});

base.describe('recordings, locked', () => {
  // One bridge and one recording service for these tests: none changes what the next one sees. An
  // unlock is a session of that test's own browser context; the next test's context has none, so its
  // pages are locked again.
  let bridge: Bridge;
  let rec: RecEnv;
  base.beforeAll(async () => {
    bridge = await startBridge({ configured: true, simHour: 12 });
    rec = await startRecordings({ shows: [slowShow('Locked Show', 891000001, 1, 0.1, 100_000)], follow: [{ name: 'locked show', dest_folder: 'Locked' }], owner: bridge.service.owner });
    // One episode downloaded before the lock: the Recordings list offers Re-scan and Delete from box on it.
    const sync = await rec.api.post('/api/sync');
    expect(sync.status).toBe(202);
    await rec.service.engine.current()?.done;
    const res = await fetch(`${bridge.url}/api/security/passcode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode: '4711' }) });
    expect(res.status).toBe(200);
  });
  base.afterAll(async () => {
    await rec?.stop();
    await bridge?.stop();
  });

  base('opening Setup while locked asks nothing the server refuses; the search runs after the unlock', async ({ page }) => {
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(`${rec.url}/setup`);
    const picker = page.getByTestId('box-picker');
    const find = picker.getByRole('button', { name: 'Find boxes on the network' });
    await expect(find).toBeDisabled();
    await expect(find).toHaveAccessibleDescription('Unlock with the passcode above to search for boxes or choose one.');
    const banner = page.getByTestId('locked-banner');
    await banner.getByLabel('Passcode').fill('4711');
    await banner.getByRole('button', { name: 'Unlock' }).click();
    // Unlocked, the step searches as it would have: the box answers.
    await expect(picker.getByText('Found one box')).toBeVisible({ timeout: 15_000 });
    expect(refused).toEqual([]);
  });

  base('every control that needs a session is disabled, each saying why', async ({ page }) => {
    const why = /^Unlock with the passcode above to /;
    await page.goto(`${rec.url}/shows`);
    await expect(page.getByTestId('locked-banner')).toBeVisible();
    for (const name of ['Follow show', 'Load shows from the box', 'Pause', 'Sync this show', 'Unfollow']) {
      const button = page.getByRole('button', { name, exact: true });
      await expect(button, name).toBeDisabled();
      await expect(button, name).toHaveAccessibleDescription(why);
    }
    await page.getByRole('link', { name: 'Sync history' }).first().click();
    for (const name of ['Sync now', 'Clear history']) {
      const button = page.getByRole('button', { name, exact: true });
      await expect(button, name).toBeDisabled();
      await expect(button, name).toHaveAccessibleDescription(why);
    }
    await page.getByRole('link', { name: 'Settings' }).first().click();
    for (const name of ['Find boxes on the network', 'Check address']) {
      const button = page.getByRole('button', { name, exact: true });
      await expect(button, name).toBeDisabled();
      await expect(button, name).toHaveAccessibleDescription(why);
    }
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Media library', exact: true }).click();
    for (const name of ['Save', 'Test this folder']) {
      const button = page.getByTestId('open-section').getByRole('button', { name, exact: true });
      await expect(button, name).toBeDisabled();
      await expect(button, name).toHaveAccessibleDescription(why);
    }
    const reset = page.getByRole('button', { name: 'Reset the recording sync…' });
    if (await reset.count()) {
      await expect(reset).toBeDisabled();
      await expect(reset).toHaveAccessibleDescription(why);
    }
    await expect(page.locator('body')).not.toContainText('/api/unlock');
  });

  base('the Recordings list offers Re-scan and Delete from box disabled, saying why', async ({ page }) => {
    await page.goto(`${rec.url}/recordings`);
    await expect(page.getByTestId('locked-banner')).toBeVisible();
    const row = page.locator('[data-status="done"]', { hasText: 'Episode 1' });
    await expect(row).toBeVisible();
    for (const name of [/^Re-scan .*Episode 1.* for ads$/, /^Delete from box: .*Episode 1/]) {
      const button = row.getByRole('button', { name });
      await expect(button, String(name)).toBeDisabled();
      await expect(button, String(name)).toHaveAccessibleDescription('Unlock with the passcode above to re-scan or delete recordings.');
    }
    await expect(page.locator('body')).not.toContainText('/api/unlock');
  });
});
