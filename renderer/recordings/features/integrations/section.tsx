import { SettingsCard, type SettingDef } from '../../settings/SettingsCard.js';
import type { RecordingsFeaturePage } from '../page-section.js';

export const MQTT: SettingDef[] = [
  { key: 'mqtt_enabled', label: 'Send to MQTT', kind: 'bool', hint: 'Works once a broker is set below; turn it off to pause without forgetting the broker.' },
  { key: 'mqtt_url', label: 'MQTT broker', kind: 'text', placeholder: 'mqtt://192.168.1.10:1883', hint: 'mqtt:// or mqtts:// (encrypted), the broker’s address and port; no user name or password in it.' },
  { key: 'mqtt_username', label: 'MQTT user name', kind: 'text', hint: 'If the broker asks for one.' },
  { key: 'mqtt_password', label: 'MQTT password', kind: 'secret', hint: 'Only ever sent to the broker above; changing the broker address clears it.' },
  { key: 'mqtt_client_id', label: 'MQTT client name', kind: 'text', hint: 'Leave blank for one made up from this computer.' },
  { key: 'mqtt_topic_prefix', label: 'Topic prefix', kind: 'text', hint: 'First part of every topic (letters, digits, - and _, parts separated by /).' },
  { key: 'mqtt_discovery_prefix', label: 'Home Assistant discovery prefix', kind: 'text', hint: 'homeassistant unless you changed it in Home Assistant.' },
  { key: 'mqtt_publish_interval_seconds', label: 'Send every (seconds)', kind: 'number', hint: '1 to 3600.' },
];
export const METRICS: SettingDef[] = [{ key: 'metrics_enabled', label: 'Prometheus metrics', kind: 'bool', hint: 'Serve the counters at /metrics on this address.' }];

/** MQTT for Home Assistant and the Prometheus metrics (main/recordings/integrations/feature.ts). */
export const integrationsPage: RecordingsFeaturePage = {
  name: 'mqtt-and-metrics',
  sections: [
    {
      id: 'mqtt',
      label: 'MQTT (Home Assistant)',
      explainer: (
        <p>
          With an MQTT broker, Home Assistant finds the recording sync by itself: the last sync's result, downloads in progress, the next scheduled sync, and a Sync now button
          (unavailable while a passcode is set). Changing a prefix or turning this off removes the old entries from Home Assistant.
        </p>
      ),
      keys: MQTT.map((d) => d.key),
      render: ({ view }) => <SettingsCard title="MQTT (Home Assistant)" id="mqtt" defs={MQTT} view={view} testId="settings-mqtt" />,
    },
    {
      id: 'metrics',
      label: 'Metrics (Prometheus)',
      explainer: <p>Prometheus or Grafana can collect the sync counters from this service's /metrics address. Anyone on your network can read them, like these pages.</p>,
      keys: METRICS.map((d) => d.key),
      render: ({ view }) => (
        <SettingsCard
          title="Metrics (Prometheus)"
          id="metrics"
          defs={METRICS}
          view={view}
          testId="settings-metrics"
          extra={() =>
            view.settings.metrics_enabled === true ? (
              <p className="small muted">
                Prometheus reads <a href="/metrics">{`${location.origin}/metrics`}</a>.
              </p>
            ) : null
          }
        />
      ),
    },
  ],
};
