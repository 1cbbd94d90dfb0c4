import { SettingsCard, type SettingDef } from '../../settings/SettingsCard.js';
import type { RecordingsFeaturePage } from '../page-section.js';

export const MQTT: SettingDef[] = [
  { key: 'mqtt_enabled' },
  { key: 'mqtt_url', placeholder: 'mqtt://192.168.1.10:1883' },
  { key: 'mqtt_username' },
  { key: 'mqtt_password' },
  { key: 'mqtt_client_id' },
  { key: 'mqtt_topic_prefix' },
  { key: 'mqtt_discovery_prefix' },
  { key: 'mqtt_publish_interval_seconds' },
];
export const METRICS: SettingDef[] = [{ key: 'metrics_enabled' }];

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
