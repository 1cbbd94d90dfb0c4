import { z } from 'zod';
import type { SettingDef } from '../features/setting-def.js';
import { brokerUrl, clientId, MQTT_DEFAULTS, topicPart } from '../../integrations/mqtt/settings.js';

/**
 * The recording sync's MQTT and metrics settings, as flat keys of its settings table (spread into
 * `settingDefs` of main/recordings/settings.ts). `mqtt_password` is a secret bound to `mqtt_url`
 * (`SECRET_DESTINATIONS`): changing the broker without giving the password again clears it.
 * MQTT is on once a broker address is set (`mqtt_enabled` turns it off without forgetting it).
 */
const flag = z.preprocess((v) => (v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : v), z.boolean());

export const recordingsIntegrationDefs = {
  mqtt_enabled: { schema: flag, default: true, applies: 'live', label: 'Send to MQTT', description: 'Send the sync status to your MQTT broker once its address is set below. Turn it off to pause without forgetting the broker.' },
  mqtt_url: {
    schema: brokerUrl,
    default: '',
    env: 'MQTT_URL',
    applies: 'live',
    label: 'MQTT broker',
    description: 'Address of your MQTT broker, such as mqtt://192.168.1.10:1883 (mqtts:// for an encrypted connection). Home Assistant finds the sync here by itself.',
  },
  mqtt_username: { schema: z.string().max(256), default: '', env: 'MQTT_USERNAME', applies: 'live', label: 'MQTT user name', description: 'User name for the broker, if it asks for one.' },
  mqtt_password: { schema: z.string().max(512), default: '', env: 'MQTT_PASSWORD', secret: true, applies: 'live', label: 'MQTT password', description: 'Password for the broker. It is only sent to the broker above; changing the broker address clears it.' },
  mqtt_client_id: { schema: clientId, default: '', applies: 'live', label: 'MQTT client name', description: 'Name this app uses on the broker; leave blank for one made up from this computer.' },
  mqtt_topic_prefix: { schema: topicPart, default: MQTT_DEFAULTS.topicPrefix, env: 'MQTT_TOPIC_PREFIX', applies: 'live', label: 'Topic prefix', description: 'First part of every topic the status is sent on.' },
  mqtt_discovery_prefix: { schema: topicPart, default: MQTT_DEFAULTS.discoveryPrefix, env: 'MQTT_DISCOVERY_PREFIX', applies: 'live', label: 'Home Assistant discovery prefix', description: 'Where Home Assistant looks for new devices (homeassistant unless you changed it there).' },
  mqtt_publish_interval_seconds: { schema: z.number().int().min(1).max(3600), default: MQTT_DEFAULTS.publishIntervalSeconds, applies: 'live', label: 'Send every', description: 'How often, in seconds, the status is sent.' },
  metrics_enabled: { schema: flag, default: false, env: 'METRICS_ENABLED', applies: 'live', label: 'Prometheus metrics', description: 'Offer the sync counters at /metrics for Prometheus or Grafana to collect. Anyone on your network can read them.' },
} as const satisfies Record<string, SettingDef>;

/** `mqtt_password` is sent only to the broker `mqtt_url` named when it was given. */
export const recordingsIntegrationSecrets = { mqtt_password: ['mqtt_url'] } as const;
