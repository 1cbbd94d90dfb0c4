import { seriousViolations } from './axe.js';
import { expect, test } from './recordings-fixture.js';
import { startMosquitto, watch } from '../main/integrations/mqtt/testing/mosquitto.js';

/** The recording sync's settings page offers MQTT and metrics, and what it saves is what the service does (real mosquitto on loopback). */
test.describe('recordings settings: MQTT and metrics', () => {
  test('saves the broker from the page and the sync goes online on it; metrics turn on; the password is never shown', async ({ page, rec }) => {
    test.setTimeout(120_000);
    const PASSWORD = 'rec-broker-pass-31';
    const broker = await startMosquitto({ user: { name: 'ha', password: PASSWORD } });
    try {
      const sub = await watch(broker.url, ['home-lan-bridge/recordings/availability'], { username: 'ha', password: PASSWORD });
      await page.goto('/settings#mqtt');
      const mqtt = page.getByTestId('settings-mqtt');
      await expect(mqtt).toBeVisible();
      await expect(mqtt.getByLabel('MQTT password')).toHaveAttribute('placeholder', 'not set');

      // A web address is not a broker: said beside the field, in plain words, and nothing is saved.
      await mqtt.getByLabel('MQTT broker').fill('http://broker.home.lan');
      await mqtt.getByRole('button', { name: 'Save' }).click();
      await expect(mqtt.getByText(/must look like mqtt:\/\/192\.168\.1\.10:1883/)).toBeVisible();
      await expect(mqtt).not.toContainText('ZodError');
      expect((await rec.api.get('/api/settings')).body.settings.mqtt_url).toBe('');

      await mqtt.getByLabel('MQTT broker').fill(broker.url);
      await mqtt.getByLabel('MQTT user name').fill('ha');
      await mqtt.getByLabel('MQTT password').fill(PASSWORD);
      await mqtt.getByRole('button', { name: 'Save' }).click();
      await expect(mqtt.getByRole('status')).toContainText('Saved');
      // The recording sync is on the broker: Home Assistant would see it online.
      expect((await sub.waitFor((m) => m.payload === 'online', 15_000)).topic).toBe('home-lan-bridge/recordings/availability');
      await sub.close();

      // The password is not sent back to the page; the field says it is stored.
      await page.reload();
      await expect(mqtt.getByLabel('MQTT password')).toHaveValue('');
      await expect(mqtt.getByLabel('MQTT password')).toHaveAttribute('placeholder', 'stored — type to replace');
      await expect(mqtt.getByLabel('MQTT broker')).toHaveValue(broker.url);
      const read = await page.request.get('/api/settings');
      expect(read.status()).toBe(200);
      expect(await read.text()).not.toContain(PASSWORD);
      expect(await page.content()).not.toContain(PASSWORD);
      expect(await seriousViolations(page, ['[data-testid="open-section"]'])).toEqual([]);

      expect((await page.request.get('/metrics')).status()).toBe(404);
      await page.goto('/settings#metrics');
      const metrics = page.getByTestId('settings-metrics');
      await metrics.getByLabel('Prometheus metrics').check();
      await metrics.getByRole('button', { name: 'Save' }).click();
      await expect(metrics.getByRole('status')).toContainText('Saved');
      await expect(metrics.getByRole('link', { name: /\/metrics$/ })).toBeVisible();
      const res = await page.request.get('/metrics');
      expect(res.status()).toBe(200);
      expect(await res.text()).toContain('hlb_recordings_sync_runs');
      expect(await seriousViolations(page, ['[data-testid="open-section"]'])).toEqual([]);
    } finally {
      await broker.close();
    }
  });
});
