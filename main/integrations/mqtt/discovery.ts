/**
 * Home Assistant MQTT discovery (https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery)
 * as Home Assistant reads it since 2025.10: one retained config per entity under
 * `<discoveryPrefix>/<component>/<node>/<object>/config`, each with a `unique_id`, a
 * `default_entity_id` (`<component>.<node>_<key>`; the older `object_id` is ignored since 2026.4),
 * the service's `device` block, the origin (`o`: this app and its version) and its availability.
 * Values come from one JSON state topic per service through `value_template`; a value that is
 * null renders as `None`, which Home Assistant shows as unknown (a binary sensor too, never OFF).
 */
export interface EntityDef {
  /** Object id, also the key in the state JSON. */
  key: string;
  component: 'sensor' | 'binary_sensor' | 'button' | 'select' | 'number';
  name: string;
  unit?: string;
  deviceClass?: string;
  stateClass?: 'measurement' | 'total' | 'total_increasing';
  icon?: string;
  /** Entity shown under "Diagnostic" in Home Assistant. */
  diagnostic?: boolean;
  /** A reading the gateway gives: unavailable in Home Assistant while the gateway does not answer. */
  needsGateway?: boolean;
  /** A select's choices (what its command sends and its state shows). */
  options?: readonly string[];
  /** A number's bounds and step (Home Assistant refuses others before sending). */
  min?: number;
  max?: number;
  step?: number;
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
  /** Each command entity's own topic (select, number, button), when they have one each. */
  commandTopicFor?: (e: EntityDef) => string;
  /** `online` / `offline` for the device behind the service (the gateway): required by `needsGateway` entities. */
  gatewayAvailabilityTopic?: string;
  device: DeviceInfo;
  /** This app's version and support address (the origin block). */
  release: { version: string; homepage: string | null };
}

export interface Message {
  topic: string;
  payload: string;
}

export function discoveryTopic(ctx: Pick<DiscoveryContext, 'discoveryPrefix' | 'device'>, e: Pick<EntityDef, 'component' | 'key'>): string {
  return `${ctx.discoveryPrefix}/${e.component}/${ctx.device.id}/${e.key}/config`;
}

/** The `unique_id` of an entity of a device. */
export const uniqueIdOf = (deviceId: string, e: Pick<EntityDef, 'key'>) => `${deviceId}_${e.key}`;

/**
 * The value template of a sensor or binary sensor: the key's value, or `None` while it is null or
 * missing (Home Assistant's payload for "unknown"; a binary sensor is `ON` only for true, `OFF`
 * only for false).
 */
export function valueTemplate(e: Pick<EntityDef, 'component' | 'key'>): string {
  const v = `value_json.${e.key}`;
  return e.component === 'binary_sensor' ? `{{ 'ON' if ${v} == true else 'OFF' if ${v} == false else 'None' }}` : `{{ ${v} if ${v} is defined and ${v} is not none else 'None' }}`;
}

export function discoveryConfigs(ctx: DiscoveryContext, entities: readonly EntityDef[]): Message[] {
  return entities.map((e) => {
    const config: Record<string, unknown> = {
      name: e.name,
      unique_id: uniqueIdOf(ctx.device.id, e),
      default_entity_id: `${e.component}.${uniqueIdOf(ctx.device.id, e)}`,
      device: { identifiers: [ctx.device.id], name: ctx.device.name, model: ctx.device.model, manufacturer: 'Home LAN Bridge', sw_version: ctx.release.version },
      o: { name: 'Home LAN Bridge', sw: ctx.release.version, ...(ctx.release.homepage ? { url: ctx.release.homepage } : {}) },
    };
    if (e.needsGateway) {
      if (!ctx.gatewayAvailabilityTopic) throw new Error(`${e.key} needs the gateway's availability topic`);
      // Both must say online: the bridge runs, and the gateway answers its polls.
      config.availability = [ctx.availabilityTopic, ctx.gatewayAvailabilityTopic].map((topic) => ({ topic, payload_available: 'online', payload_not_available: 'offline' }));
      config.availability_mode = 'all';
    } else {
      config.availability_topic = ctx.availabilityTopic;
      config.payload_available = 'online';
      config.payload_not_available = 'offline';
    }
    if (e.component === 'button') {
      config.command_topic = ctx.commandTopicFor?.(e) ?? ctx.commandTopic;
      config.payload_press = 'PRESS';
    } else {
      config.state_topic = ctx.stateTopic;
      config.value_template = valueTemplate(e);
      if (e.component === 'binary_sensor') {
        config.payload_on = 'ON';
        config.payload_off = 'OFF';
      }
      if (e.component === 'select' || e.component === 'number') config.command_topic = ctx.commandTopicFor?.(e) ?? ctx.commandTopic;
      if (e.component === 'select') config.options = e.options ?? [];
      if (e.component === 'number') Object.assign(config, { min: e.min, max: e.max, step: e.step, mode: 'box' });
    }
    if (e.unit) config.unit_of_measurement = e.unit;
    if (e.deviceClass) config.device_class = e.deviceClass;
    if (e.stateClass) config.state_class = e.stateClass;
    if (e.icon) config.icon = e.icon;
    if (e.diagnostic) config.entity_category = 'diagnostic';
    return { topic: discoveryTopic(ctx, e), payload: JSON.stringify(config) };
  });
}
