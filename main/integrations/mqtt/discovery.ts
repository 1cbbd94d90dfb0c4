/**
 * Home Assistant MQTT discovery (https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery):
 * one retained config per entity under `<discoveryPrefix>/<component>/<node>/<object>/config`,
 * each with a `unique_id`, the service's `device` block and its availability topic. Values come
 * from one JSON state topic per service through `value_template`.
 */
export interface EntityDef {
  /** Object id, also the key in the state JSON. */
  key: string;
  component: 'sensor' | 'binary_sensor' | 'button';
  name: string;
  unit?: string;
  deviceClass?: string;
  stateClass?: 'measurement' | 'total' | 'total_increasing';
  icon?: string;
  /** Entity shown under "Diagnostic" in Home Assistant. */
  diagnostic?: boolean;
}

export interface DeviceInfo {
  /** Stable id of this service on this computer (`hlb_energy_3fa2…`). */
  id: string;
  name: string;
  model: string;
}

export interface DiscoveryContext {
  discoveryPrefix: string;
  stateTopic: string;
  availabilityTopic: string;
  /** Topic the button entities send their press to. */
  commandTopic?: string;
  device: DeviceInfo;
}

export interface Message {
  topic: string;
  payload: string;
}

export function discoveryTopic(ctx: Pick<DiscoveryContext, 'discoveryPrefix' | 'device'>, e: Pick<EntityDef, 'component' | 'key'>): string {
  return `${ctx.discoveryPrefix}/${e.component}/${ctx.device.id}/${e.key}/config`;
}

export function discoveryConfigs(ctx: DiscoveryContext, entities: readonly EntityDef[]): Message[] {
  return entities.map((e) => {
    const config: Record<string, unknown> = {
      name: e.name,
      unique_id: `${ctx.device.id}_${e.key}`,
      object_id: `${ctx.device.id}_${e.key}`,
      availability_topic: ctx.availabilityTopic,
      payload_available: 'online',
      payload_not_available: 'offline',
      device: { identifiers: [ctx.device.id], name: ctx.device.name, model: ctx.device.model, manufacturer: 'Home LAN Bridge' },
    };
    if (e.component === 'button') {
      config.command_topic = ctx.commandTopic;
      config.payload_press = 'PRESS';
    } else {
      config.state_topic = ctx.stateTopic;
      config.value_template = e.component === 'binary_sensor' ? `{{ 'ON' if value_json.${e.key} else 'OFF' }}` : `{{ value_json.${e.key} }}`;
      if (e.component === 'binary_sensor') {
        config.payload_on = 'ON';
        config.payload_off = 'OFF';
      }
    }
    if (e.unit) config.unit_of_measurement = e.unit;
    if (e.deviceClass) config.device_class = e.deviceClass;
    if (e.stateClass) config.state_class = e.stateClass;
    if (e.icon) config.icon = e.icon;
    if (e.diagnostic) config.entity_category = 'diagnostic';
    return { topic: discoveryTopic(ctx, e), payload: JSON.stringify(config) };
  });
}
