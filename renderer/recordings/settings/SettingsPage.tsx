import { useState } from 'react';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { messageOf, rec } from '../api.js';
import { SectionedPage, type PageSection } from '../../kit/SectionedPage.js';
import { useServerSettings } from '../use-server.js';
import { RECORDINGS_EXPLAINERS } from './explainers.js';
import { BoxPicker } from './BoxPicker.js';
import { DangerZone } from './DangerZone.js';
import { StorageTest } from './StorageTest.js';
import { SchedulePreview } from './SchedulePreview.js';
import { SettingsCard, type SettingDef } from './SettingsCard.js';

export const LIBRARY: SettingDef[] = [
  { key: 'media_root', label: 'Media folder', kind: 'text', hint: 'Absolute path of the library folder on the computer running the service; shows go in folders inside it.' },
];
export const SCHEDULE: SettingDef[] = [
  { key: 'sync_cron', label: 'Sync schedule (cron)', kind: 'text', hint: 'minute hour day month weekday, e.g. */30 * * * * (every 30 minutes) or 15 3 * * * (03:15 daily).' },
  { key: 'download_concurrency', label: 'Downloads at once', kind: 'number', hint: '1 to 4.' },
];
const ADS: SettingDef[] = [
  { key: 'ad_removal_enabled', label: 'Remove ads after download', kind: 'bool', hint: 'Also needs the show’s ad mode set to detect or cut.' },
  { key: 'ad_original_retention_days', label: 'Keep originals after a cut (days)', kind: 'number' },
];
const MEDIA_SERVER: SettingDef[] = [
  { key: 'media_server_url', label: 'Media server URL', kind: 'text', placeholder: 'http://192.168.1.10:32400' },
  { key: 'media_server_section_id', label: 'Library section', kind: 'text' },
  { key: 'media_server_token', label: 'Token', kind: 'secret' },
  { key: 'media_server_prefs_path', label: 'Preferences file (token detection)', kind: 'text' },
];
const CLOUD: SettingDef[] = [
  { key: 'cloud_api_url', label: 'Cloud API URL', kind: 'text' },
  { key: 'cloud_ws_url', label: 'Cloud WebSocket URL', kind: 'text' },
  { key: 'cloud_activation_code', label: 'Activation code', kind: 'secret' },
  { key: 'cloud_pin', label: 'PIN', kind: 'secret' },
];
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

/** A button that runs a check on the server and shows its answer (only offered when the feature exists). */
function CheckButton({ label, path, onDone }: { label: string; path: string; /** After an answer: the check may have saved settings. */ onDone?: () => void }) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const res = await rec.post<Record<string, unknown>>(path);
      setResult({ ok: true, text: typeof res?.message === 'string' ? res.message : 'OK' });
    } catch (err) {
      setResult({ ok: false, text: messageOf(err) });
    } finally {
      setBusy(false);
      onDone?.();
    }
  };
  return (
    <span className="row">
      <button type="button" onClick={() => void run()} disabled={busy}>
        {busy ? 'Checking…' : label}
      </button>
      {result && (
        <span className={result.ok ? 'muted small' : 'error-text small'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </span>
      )}
    </span>
  );
}

/** Every recording-sync setting the service acts on, one group at a time; each group saves on its own. */
export function SettingsPage() {
  const { view, error, reload } = useServerSettings();
  if (!view) return error ? <Banner kind="error">{error}</Banner> : <p className="muted">Loading…</p>;
  const caps = view.capabilities;
  const sections: PageSection[] = [
    { id: 'box', label: 'Recording box', explainer: RECORDINGS_EXPLAINERS.box, render: () => <Card title="Recording box" id="box"><BoxPicker current={String(view.settings.box_address ?? '')} /></Card> },
    { id: 'library', label: 'Media library', explainer: RECORDINGS_EXPLAINERS.library, render: () => <SettingsCard title="Media library" id="library" defs={LIBRARY} view={view} testId="settings-library" extra={(v) => <StorageTest path={String(v.media_root ?? '')} />} /> },
    {
      id: 'schedule',
      label: 'Schedule',
      explainer: RECORDINGS_EXPLAINERS.schedule,
      render: () => (
        <SettingsCard
          title="Schedule"
          id="schedule"
          defs={SCHEDULE}
          view={view}
          testId="settings-schedule"
          extraAfter="sync_cron"
          extra={(v) => <SchedulePreview cron={String(v.sync_cron ?? '')} tz={view.tz} />}
        />
      ),
    },
  ];
  if (caps?.ad_scan)
    sections.push({
      id: 'ads',
      label: 'Ad removal',
      explainer: RECORDINGS_EXPLAINERS.ads,
      render: () => (
        <SettingsCard
          title="Ad removal"
          id="ads"
          defs={ADS}
          view={view}
          extra={() => (
            <p className="small muted">
              Detector settings: <code>{view.detector_config.path}</code> ({view.detector_config.source === 'user' ? 'your file' : 'bundled default'})
            </p>
          )}
        />
      ),
    });
  if (caps?.discover_media_server)
    sections.push({
      id: 'media-server',
      label: 'Media server',
      explainer: RECORDINGS_EXPLAINERS.mediaServer,
      render: () => (
        <SettingsCard
          title="Media server"
          id="media-server"
          defs={MEDIA_SERVER}
          view={view}
          actions={
            <>
              <CheckButton label="Discover" path="/api/discover-media-server" onDone={() => void reload()} />
              {caps.detect_media_server_token && <CheckButton label="Detect token" path="/api/media-server/detect-token" onDone={() => void reload()} />}
            </>
          }
        />
      ),
    });
  if (caps?.cloud_test)
    sections.push({
      id: 'cloud',
      label: 'Box cloud account',
      explainer: RECORDINGS_EXPLAINERS.cloud,
      render: () => <SettingsCard title="Box cloud account" id="cloud" defs={CLOUD} view={view} actions={<CheckButton label="Test" path="/api/cloud-test" />} />,
    });
  sections.push(
    { id: 'mqtt', label: 'MQTT (Home Assistant)', explainer: RECORDINGS_EXPLAINERS.mqtt, render: () => <SettingsCard title="MQTT (Home Assistant)" id="mqtt" defs={MQTT} view={view} testId="settings-mqtt" /> },
    {
      id: 'metrics',
      label: 'Metrics (Prometheus)',
      explainer: RECORDINGS_EXPLAINERS.metrics,
      render: () => (
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
  );
  return (
    <>
      <h1>Settings</h1>
      {error && <Banner kind="error">{error}</Banner>}
      <SectionedPage sections={sections} />
      <p className="muted small">Times are shown in {view.tz} (the service’s TZ).</p>
      <DangerZone />
    </>
  );
}
