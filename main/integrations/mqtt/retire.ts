import { discoveryTopic, type EntityDef, type Message } from './discovery.js';

/** Where a service's messages went: what a later settings change may have to take back. */
export interface Placement {
  /** The service was on a broker (enabled and a broker set). */
  on: boolean;
  /** The broker's address (retained messages live on that broker only). */
  url: string;
  discoveryPrefix: string;
  /** `<topicPrefix>/<service>`: the state and availability topics start with it. */
  base: string;
}

/** What to take off the broker on the way out, before the link disconnects. */
export interface Goodbye {
  /** Retained topics to empty (an empty retained payload deletes the broker's copy; HA then removes the entity). */
  clear: string[];
  /** Empty the availability topic too (moved elsewhere), instead of leaving `offline` on it. */
  clearAvailability: boolean;
}

/**
 * Home Assistant keeps an entity as long as its retained discovery config is on the broker, so a
 * new topic or discovery prefix, or MQTT turned off, would leave ghost entities behind. Going from
 * `prev` to `next` retires every config published under `prev` (and its retained state topics)
 * when a prefix changed or MQTT went off; on a move to other prefixes the old availability topic is
 * emptied as well, on a switch-off it says `offline`. Null when nothing needs taking back (the
 * same prefixes, only the broker's login changed, or nothing was published).
 */
export function goodbyeFor(prev: Placement, next: Placement, deviceId: string, entities: readonly Pick<EntityDef, 'component' | 'key'>[], retainedTopics: readonly string[]): Goodbye | null {
  if (!prev.on) return null;
  const moved = next.discoveryPrefix !== prev.discoveryPrefix || next.base !== prev.base;
  const off = !next.on;
  if (!moved && !off) return null;
  return {
    clear: [...entities.map((e) => discoveryTopic({ discoveryPrefix: prev.discoveryPrefix, device: { id: deviceId, name: '', model: '' } }, e)), ...retainedTopics],
    clearAvailability: moved && !off,
  };
}

/** Where the broker keeps a device's discovery configs (its node), whatever their component and key. */
export function deviceConfigsFilter(discoveryPrefix: string, deviceId: string): string {
  return `${discoveryPrefix}/+/${deviceId}/+/config`;
}

const uniqueIdIn = (payload: string): string | null => {
  try {
    const v = JSON.parse(payload) as { unique_id?: unknown };
    return typeof v.unique_id === 'string' ? v.unique_id : null;
  } catch {
    return null;
  }
};

/**
 * After an upgrade: a config the broker holds under this device's node (it arrives on subscribing,
 * retained from an earlier version) and what to send for it. Nothing when it is one of `current`
 * (same topic and unique id) or already empty; an empty retained config when this version no longer
 * publishes that topic (the entity was renamed or moved: Home Assistant removes it, so no
 * duplicate stays); an empty config and then the current one when its unique id changed (Home
 * Assistant would otherwise keep the old entity beside the new one).
 */
export function retireStale(topic: string, payload: string, current: readonly Message[]): Message[] {
  if (payload === '') return [];
  const now = current.find((m) => m.topic === topic);
  if (!now) return [{ topic, payload: '' }];
  const id = uniqueIdIn(payload);
  if (id !== null && id === uniqueIdIn(now.payload)) return [];
  return [{ topic, payload: '' }, now];
}
