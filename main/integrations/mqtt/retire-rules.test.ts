import { describe, expect, it } from 'vitest';
import { goodbyeFor, type Placement } from './retire.js';

const on: Placement = { on: true, url: 'mqtt://127.0.0.1:1883', discoveryPrefix: 'homeassistant', base: 'home-lan-bridge/energy' };
const entities = [
  { component: 'sensor', key: 'battery_soc' },
  { component: 'binary_sensor', key: 'gateway_connected' },
] as const;

describe('which retained messages a settings change takes back', () => {
  it('nothing when the prefixes stay (a new login or client name), or when nothing was published', () => {
    expect(goodbyeFor(on, { ...on }, 'hlb_energy_1', entities, ['home-lan-bridge/energy/state'])).toBeNull();
    expect(goodbyeFor(on, { ...on, url: 'mqtt://127.0.0.2:1883' }, 'hlb_energy_1', entities, [])).toBeNull();
    expect(goodbyeFor({ ...on, on: false }, { ...on, discoveryPrefix: 'ha2' }, 'hlb_energy_1', entities, [])).toBeNull();
  });

  it('a new discovery or topic prefix: every old config and retained topic, and the old availability emptied', () => {
    for (const next of [{ ...on, discoveryPrefix: 'ha2' }, { ...on, base: 'lan2/energy' }]) {
      expect(goodbyeFor(on, next, 'hlb_energy_1', entities, ['home-lan-bridge/energy/state'])).toEqual({
        clear: ['homeassistant/sensor/hlb_energy_1/battery_soc/config', 'homeassistant/binary_sensor/hlb_energy_1/gateway_connected/config', 'home-lan-bridge/energy/state'],
        clearAvailability: true,
      });
    }
  });

  it('switched off: the old configs go, and availability is left saying offline', () => {
    const g = goodbyeFor(on, { ...on, on: false, discoveryPrefix: 'ha2' }, 'hlb_energy_1', entities, []);
    expect(g?.clear).toEqual(['homeassistant/sensor/hlb_energy_1/battery_soc/config', 'homeassistant/binary_sensor/hlb_energy_1/gateway_connected/config']);
    expect(g?.clearAvailability).toBe(false);
  });
});
