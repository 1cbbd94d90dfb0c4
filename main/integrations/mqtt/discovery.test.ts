import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { discoveryConfigs, type DiscoveryContext } from './discovery.js';
import { retireStale } from './retire.js';

const ctx: DiscoveryContext = {
  discoveryPrefix: 'homeassistant',
  stateTopic: 'home-lan-bridge/energy/state',
  availabilityTopic: 'home-lan-bridge/energy/availability',
  gatewayAvailabilityTopic: 'home-lan-bridge/energy/gateway',
  device: { id: 'hlb_energy_0123456789', name: 'Energy bridge', model: 'Home LAN Bridge energy bridge' },
  release: { version: '1.2.3', homepage: null },
};
const parse = (payload: string) => JSON.parse(payload) as Record<string, unknown>;

/**
 * Renders value templates with Jinja2 as Home Assistant does (HA's templates are Jinja2), each over
 * its state JSON as `value_json`, in one python3 run; null when python3 with jinja2 is not here.
 */
function render(cases: Array<[template: string, state: unknown]>): string[] | null {
  const py = `import sys, json, jinja2\nenv = jinja2.Environment()\nsys.stdout.write(json.dumps([env.from_string(t).render(value_json=v) for t, v in json.loads(sys.stdin.read())]))`;
  const r = spawnSync('python3', ['-c', py], { input: JSON.stringify(cases), encoding: 'utf8' });
  return r.status === 0 ? (JSON.parse(r.stdout) as string[]) : null;
}
const jinja = render([['{{ 1 }}', {}]])?.[0] === '1';
if (!jinja) console.warn('value template checks skipped: python3 with jinja2 not found');

describe('discovery configs as Home Assistant reads them today', () => {
  const [soc, connected] = discoveryConfigs(ctx, [
    { key: 'battery_soc', component: 'sensor', name: 'Battery charge', unit: '%', needsGateway: true },
    { key: 'gateway_connected', component: 'binary_sensor', name: 'Gateway connected', deviceClass: 'connectivity' },
  ]).map((m) => parse(m.payload));

  it('names the entity id with default_entity_id (object_id is ignored since 2026.4) and says where it comes from', () => {
    expect(soc).toMatchObject({ unique_id: 'hlb_energy_0123456789_battery_soc', default_entity_id: 'sensor.hlb_energy_0123456789_battery_soc', o: { name: 'Home LAN Bridge', sw: '1.2.3' } });
    expect(connected!.default_entity_id).toBe('binary_sensor.hlb_energy_0123456789_gateway_connected');
    expect(soc).not.toHaveProperty('object_id');
    const withHome = parse(discoveryConfigs({ ...ctx, release: { version: '1.2.3', homepage: 'https://example.org/hlb' } }, [{ key: 'x', component: 'sensor', name: 'X' }])[0]!.payload);
    expect(withHome.o).toEqual({ name: 'Home LAN Bridge', sw: '1.2.3', url: 'https://example.org/hlb' });
  });

  it('a gateway reading needs both the bridge and the gateway online; the rest only the bridge', () => {
    expect(soc!.availability_mode).toBe('all');
    expect(soc!.availability).toEqual([
      { topic: 'home-lan-bridge/energy/availability', payload_available: 'online', payload_not_available: 'offline' },
      { topic: 'home-lan-bridge/energy/gateway', payload_available: 'online', payload_not_available: 'offline' },
    ]);
    expect(soc).not.toHaveProperty('availability_topic');
    expect(connected).toMatchObject({ availability_topic: 'home-lan-bridge/energy/availability', payload_available: 'online' });
    expect(connected).not.toHaveProperty('availability');
  });

  it.skipIf(!jinja)('renders None (unknown in Home Assistant) for a value not known yet, a binary sensor too; ON and OFF only for true and false', () => {
    const b = connected!.value_template as string;
    const v = soc!.value_template as string;
    const cases: Array<[string, unknown, string]> = [
      [b, { gateway_connected: true }, connected!.payload_on as string],
      [b, { gateway_connected: false }, connected!.payload_off as string],
      [b, { gateway_connected: null }, 'None'],
      [b, {}, 'None'],
      [v, { battery_soc: 57.5 }, '57.5'],
      [v, { battery_soc: 0 }, '0'],
      [v, { battery_soc: null }, 'None'],
      [v, {}, 'None'],
    ];
    expect(render(cases.map(([t, s]) => [t, s]))).toEqual(cases.map(([, , want]) => want));
  });
});

describe('configs an earlier version left under the device', () => {
  const current = discoveryConfigs(ctx, [{ key: 'battery_soc', component: 'sensor', name: 'Battery charge' }]);
  const topic = current[0]!.topic;

  it('keeps a current config, whatever else in it changed (a unit, object_id to default_entity_id)', () => {
    expect(retireStale(topic, current[0]!.payload, current)).toEqual([]);
    expect(retireStale(topic, JSON.stringify({ name: 'Battery charge', unique_id: 'hlb_energy_0123456789_battery_soc', object_id: 'hlb_energy_0123456789_battery_soc' }), current)).toEqual([]);
    expect(retireStale(topic, '', current)).toEqual([]);
  });

  it('empties a config this version does not send, and replaces one whose unique id changed', () => {
    const gone = 'homeassistant/sensor/hlb_energy_0123456789/outdoor_temp/config';
    expect(retireStale(gone, JSON.stringify({ unique_id: 'hlb_energy_0123456789_outdoor_temp' }), current)).toEqual([{ topic: gone, payload: '' }]);
    expect(retireStale(topic, JSON.stringify({ unique_id: 'energy_battery_soc' }), current)).toEqual([{ topic, payload: '' }, current[0]]);
    expect(retireStale(topic, 'not json', current)).toEqual([{ topic, payload: '' }, current[0]]);
  });
});
