import { seriousViolations } from './axe.js';
import { expect, test } from './fixtures.js';
import { startMosquitto, watch } from '../main/integrations/mqtt/testing/mosquitto.js';

test.describe('settings: MQTT and metrics', () => {
  test('the settings page offers MQTT and metrics, and what it saves is what the bridge does', async ({ page, bridge }) => {
    test.setTimeout(120_000);
    void bridge;
    const broker = await startMosquitto({ user: { name: 'ha', password: 'broker-pass-77' } });
    try {
      const sub = await watch(broker.url, ['home-lan-bridge/energy/availability'], { username: 'ha', password: 'broker-pass-77' });
      // One settings section at a time, addressed by its key.
      await page.goto('/settings#mqtt');
      const mqtt = page.getByTestId('settings-mqtt');
      await expect(mqtt.getByRole('heading', { name: 'MQTT (Home Assistant)' })).toBeVisible();
      await mqtt.getByLabel('Send to MQTT').check();
      await mqtt.getByLabel('MQTT broker').fill(broker.url);
      await mqtt.getByLabel('User name').fill('ha');
      await mqtt.getByLabel('Password').fill('broker-pass-77');
      await mqtt.getByRole('button', { name: /^Save MQTT/ }).click();
      await expect(page.getByTestId('status-mqtt')).toContainText('Saved');
      // The bridge is on the broker: Home Assistant would see it online.
      expect((await sub.waitFor((m) => m.payload === 'online', 10_000)).topic).toBe('home-lan-bridge/energy/availability');
      // The password is not sent back to the page; the field says it is set.
      await page.reload();
      await expect(mqtt.getByLabel('Password')).toHaveValue('');
      await expect(mqtt.getByLabel('Password')).toHaveAttribute('placeholder', 'set (type to replace)');
      await sub.close();

      expect((await page.request.get('/metrics')).status()).toBe(404);
      await page.goto('/settings#metrics');
      const metrics = page.getByTestId('settings-metrics');
      await expect(metrics.getByRole('heading', { name: 'Metrics (Prometheus)' })).toBeVisible();
      await metrics.getByLabel('Prometheus metrics').check();
      await metrics.getByRole('button', { name: /^Save Metrics/ }).click();
      await expect(page.getByTestId('status-metrics')).toContainText('Saved');
      const res = await page.request.get('/metrics');
      expect(res.status()).toBe(200);
      expect(await res.text()).toContain('hlb_energy_battery_soc_ratio');

      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await broker.close();
    }
  });
});
