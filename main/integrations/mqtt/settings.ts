import { z } from 'zod';

/**
 * MQTT settings (Home Assistant and other home-automation hubs). One schema, used by the energy
 * bridge as its `mqtt` settings section and by the recording sync as flat `mqtt_*` keys. The
 * password is a secret bound to the broker it was given for: changing the broker's address
 * without giving the password again clears it (a password is only ever sent to its own broker).
 */
const live = { applies: 'live' } as const;

/** `mqtt://host[:port]` or `mqtts://host[:port]`, no path, no credentials in the URL. */
export function isBrokerUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'mqtt:' || u.protocol === 'mqtts:') && u.hostname !== '' && u.username === '' && u.password === '' && (u.pathname === '' || u.pathname === '/');
  } catch {
    return false;
  }
}

/** The broker a URL names (scheme, host, port), '' when blank or not a broker URL. */
export function brokerOf(url: string): string {
  if (!isBrokerUrl(url)) return '';
  const u = new URL(url);
  return `${u.protocol}//${u.hostname.toLowerCase()}:${u.port || (u.protocol === 'mqtts:' ? '8883' : '1883')}`;
}

export const brokerUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => v === '' || isBrokerUrl(v), 'must look like mqtt://192.168.1.10:1883 or mqtts://broker.home.lan (no user name or password in it)');
export const topicPart = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, 'may use letters, digits, - and _, with / between parts (no spaces, + or #)');
export const clientId = z
  .string()
  .trim()
  .max(64)
  .regex(/^[A-Za-z0-9_-]*$/, 'may use letters, digits, - and _ only');

export const MQTT_DEFAULTS = { topicPrefix: 'home-lan-bridge', discoveryPrefix: 'homeassistant', publishIntervalSeconds: 10 } as const;

/** The energy bridge's `mqtt` section. */
export const mqttSettings = z
  .object({
    enabled: z.boolean().default(false).meta({ ...live, label: 'Send to MQTT', description: 'Send the readings to your MQTT broker, so Home Assistant and similar hubs see them.' }),
    url: brokerUrl.default('').meta({ ...live, label: 'MQTT broker', description: 'Address of your MQTT broker, such as mqtt://192.168.1.10:1883 (mqtts:// for an encrypted connection).' }),
    username: z.string().max(256).default('').meta({ ...live, label: 'User name', description: 'User name for the broker, if it asks for one.' }),
    password: z
      .string()
      .max(512)
      .default('')
      .meta({ ...live, secret: 'hidden', label: 'Password', description: 'Password for the broker. It is only sent to the broker above; changing the broker address clears it.' }),
    clientId: clientId.default('').meta({ ...live, label: 'Client name', description: 'Name this app uses on the broker; leave blank for one made up from this computer.' }),
    topicPrefix: topicPart.default(MQTT_DEFAULTS.topicPrefix).meta({ ...live, label: 'Topic prefix', description: 'First part of every topic the readings are sent on.' }),
    discoveryPrefix: topicPart.default(MQTT_DEFAULTS.discoveryPrefix).meta({ ...live, label: 'Home Assistant discovery prefix', description: 'Where Home Assistant looks for new devices (homeassistant unless you changed it there).' }),
    publishIntervalSeconds: z
      .number()
      .int()
      .min(1)
      .max(3600)
      .default(MQTT_DEFAULTS.publishIntervalSeconds)
      .meta({ ...live, label: 'Send every', description: 'How often the readings are sent, in seconds (never more often than the gateway is read).' }),
  })
  .strict();
export type MqttSettings = z.output<typeof mqttSettings>;

const str = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

/** MQTT_URL (enables MQTT), MQTT_USERNAME, MQTT_PASSWORD, MQTT_CLIENT_ID, MQTT_TOPIC_PREFIX, MQTT_DISCOVERY_PREFIX. */
export function mqttSeeds(env: NodeJS.ProcessEnv): Partial<MqttSettings> {
  const url = str(env.MQTT_URL);
  if (url !== undefined && !isBrokerUrl(url)) throw new Error(`MQTT_URL: must look like mqtt://192.168.1.10:1883 or mqtts://broker.home.lan, got "${url.slice(0, 100)}"`);
  return {
    ...(url ? { enabled: true, url } : {}),
    ...(str(env.MQTT_USERNAME) ? { username: str(env.MQTT_USERNAME) } : {}),
    ...(str(env.MQTT_PASSWORD) ? { password: str(env.MQTT_PASSWORD) } : {}),
    ...(str(env.MQTT_CLIENT_ID) ? { clientId: str(env.MQTT_CLIENT_ID) } : {}),
    ...(str(env.MQTT_TOPIC_PREFIX) ? { topicPrefix: str(env.MQTT_TOPIC_PREFIX) } : {}),
    ...(str(env.MQTT_DISCOVERY_PREFIX) ? { discoveryPrefix: str(env.MQTT_DISCOVERY_PREFIX) } : {}),
  };
}

/** The `mqtt` section as GET /api/settings shows it: the password only as `passwordSet`. */
export function publicMqtt(s: MqttSettings): Omit<MqttSettings, 'password'> & { passwordSet: boolean } {
  const { password, ...rest } = s;
  return { ...rest, passwordSet: password !== '' };
}

/** Drops the read-only `passwordSet` a client may echo back from GET. */
export function withoutMqttReadOnly(section: unknown): unknown {
  if (typeof section !== 'object' || section === null || Array.isArray(section) || !('passwordSet' in section)) return section;
  const { passwordSet: _p, ...rest } = section as Record<string, unknown>;
  return rest;
}

/**
 * Binds the password to its broker on a settings write: when the update moves the broker (scheme,
 * host or port) without giving a password, the stored one is cleared and named in `cleared`.
 */
export function bindMqttPassword(prev: MqttSettings, patch: unknown, next: MqttSettings): { next: MqttSettings; cleared: string[] } {
  const given = typeof patch === 'object' && patch !== null && 'password' in patch;
  if (given || next.password === '' || brokerOf(prev.url) === brokerOf(next.url)) return { next, cleared: [] };
  return { next: { ...next, password: '' }, cleared: ['mqtt.password'] };
}

export const MQTT_CLEARED_MESSAGE = 'The MQTT password was cleared: a password is only sent to the broker it was given for, and the broker address changed. Enter it again for the new broker.';
