import { z } from 'zod';
import { isBrokerUrl, MQTT_DEFAULTS } from './settings.js';

/**
 * The recording sync's MQTT and metrics settings, as flat keys of its settings table (spread into
 * `settingDefs` of main/recordings/settings.ts). `mqtt_password` is a secret bound to `mqtt_url`
 * (`SECRET_DESTINATIONS`): changing the broker without giving the password again clears it.
 * MQTT is on once a broker address is set (`mqtt_enabled` turns it off without forgetting it).
 */
const flag = z.preprocess((v) => (v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : v), z.boolean());
const topicPart = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, 'may use letters, digits, - and _, with / between parts (no spaces, + or #)');

export const recordingsIntegrationDefs = {
  mqtt_enabled: { schema: flag, default: true, applies: 'live' },
  mqtt_url: {
    schema: z.string().trim().max(2048).refine((v) => v === '' || isBrokerUrl(v), 'must look like mqtt://192.168.1.10:1883 or mqtts://broker.home.lan (no user name or password in it)'),
    default: '',
    env: 'MQTT_URL',
    applies: 'live',
  },
  mqtt_username: { schema: z.string().max(256), default: '', env: 'MQTT_USERNAME', applies: 'live' },
  mqtt_password: { schema: z.string().max(512), default: '', env: 'MQTT_PASSWORD', secret: true, applies: 'live' },
  mqtt_client_id: { schema: z.string().trim().max(64).regex(/^[A-Za-z0-9_-]*$/, 'may use letters, digits, - and _ only'), default: '', applies: 'live' },
  mqtt_topic_prefix: { schema: topicPart, default: MQTT_DEFAULTS.topicPrefix, env: 'MQTT_TOPIC_PREFIX', applies: 'live' },
  mqtt_discovery_prefix: { schema: topicPart, default: MQTT_DEFAULTS.discoveryPrefix, env: 'MQTT_DISCOVERY_PREFIX', applies: 'live' },
  mqtt_publish_interval_seconds: { schema: z.number().int().min(1).max(3600), default: MQTT_DEFAULTS.publishIntervalSeconds, applies: 'live' },
  metrics_enabled: { schema: flag, default: false, env: 'METRICS_ENABLED', applies: 'live' },
} as const;

/** `mqtt_password` is sent only to the broker `mqtt_url` named when it was given. */
export const recordingsIntegrationSecrets = { mqtt_password: ['mqtt_url'] } as const;
