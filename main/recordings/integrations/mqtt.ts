import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import type { OwnerGate } from '../../core/owner-gate.js';
import type { ProgressRegistry } from '../progress.js';
import type { AdOutcome } from './ad-outcomes.js';
import type { FeatureSettingsOf, SyncParts } from '../features/feature.js';
import type { recordingsIntegrationDefs } from './settings.js';
import { appRelease } from '../../core/app-version.js';
import { createAnnouncementDebounce } from '../../integrations/mqtt/announcements.js';
import { discoveryConfigs, type DiscoveryContext, type EntityDef, type Message } from '../../integrations/mqtt/discovery.js';
import { installId } from '../../integrations/mqtt/identity.js';
import { createMqttLink, type MqttLink } from '../../integrations/mqtt/link.js';
import { deviceConfigsFilter, goodbyeFor, retireStale, type Placement } from '../../integrations/mqtt/retire.js';

/** What MQTT reads of the settings besides their values: where the broker and password came from, and changes. */
export interface MqttSettingsView {
  view(): { sources: Record<'mqtt_url' | 'mqtt_password', string> };
  onChange(listener: (changed: readonly string[]) => void): () => void;
}

export interface RecordingsMqttDeps {
  settings: FeatureSettingsOf<typeof recordingsIntegrationDefs> & MqttSettingsView;
  engine: SyncParts['engine'];
  runs: SyncParts['runs'];
  scheduler: SyncParts['scheduler'];
  progress: ProgressRegistry;
  /** Recordings in the library by ad-removal outcome (ad-outcomes.ts). */
  adOutcomes: () => Record<AdOutcome, number>;
  /** The owner's passcode gate: the Sync now button follows the route's rule. */
  owner?: OwnerGate;
  outbound: Outbound;
  clock: Clock;
  logger: Logger;
  /** The service's data folder (its stable device id). */
  dataDir: string;
  reconnect?: { minMs: number; maxMs: number };
}

export const recordingsEntities: readonly EntityDef[] = [
  { key: 'last_sync_status', component: 'sensor', name: 'Last sync result', icon: 'mdi:sync' },
  { key: 'last_sync_time', component: 'sensor', name: 'Last sync finished', deviceClass: 'timestamp' },
  { key: 'last_sync_downloaded', component: 'sensor', name: 'Downloaded in last sync', icon: 'mdi:download', stateClass: 'measurement' },
  { key: 'last_sync_failed', component: 'sensor', name: 'Failed in last sync', icon: 'mdi:alert-circle', stateClass: 'measurement' },
  { key: 'last_sync_skipped', component: 'sensor', name: 'Skipped in last sync', icon: 'mdi:debug-step-over', stateClass: 'measurement' },
  { key: 'sync_running', component: 'binary_sensor', name: 'Sync running', deviceClass: 'running' },
  { key: 'recordings_marked', component: 'sensor', name: 'Recordings marked (ad breaks)', icon: 'mdi:bookmark-multiple', stateClass: 'measurement' },
  { key: 'recordings_cut', component: 'sensor', name: 'Recordings cut (ads removed)', icon: 'mdi:content-cut', stateClass: 'measurement' },
  { key: 'ad_removal_failed', component: 'sensor', name: 'Ad removal failures', icon: 'mdi:alert-circle', stateClass: 'measurement' },
  { key: 'downloads_in_progress', component: 'sensor', name: 'Downloads in progress', icon: 'mdi:progress-download', stateClass: 'measurement' },
  { key: 'next_run', component: 'sensor', name: 'Next scheduled sync', deviceClass: 'timestamp' },
  { key: 'box_reachable', component: 'binary_sensor', name: 'Recording box found in last sync', deviceClass: 'connectivity', diagnostic: true },
  { key: 'sync_now', component: 'button', name: 'Sync now', icon: 'mdi:sync' },
];

const iso = (t: number | null | undefined) => (t ? new Date(t).toISOString() : null);

/**
 * The recording sync on MQTT: its sync status as sensors, and a **Sync now** button. A press
 * starts a sync as `POST /api/sync` does: not while one runs, and, while the owner has set a
 * passcode, not at all (a broker message carries no session; the route would answer 401 `locked`).
 * While that is so the button is reported unavailable in Home Assistant, so it never promises a
 * sync that will not happen.
 */
export function createRecordingsMqtt(deps: RecordingsMqttDeps): { start(): void; stop(): Promise<void>; link: MqttLink; publishState(): void } {
  const id = installId('recordings', deps.dataDir);
  const s = () => deps.settings.get();
  const topics = () => {
    const base = `${s().mqtt_topic_prefix}/recordings`;
    return { availability: `${base}/availability`, state: `${base}/state`, press: `${base}/sync_now/press`, buttonAvailability: `${base}/sync_now/availability`, haStatus: `${s().mqtt_discovery_prefix}/status` };
  };
  const locked = () => deps.owner?.passcodeSet() === true;
  const discovery = (): DiscoveryContext => ({
    discoveryPrefix: s().mqtt_discovery_prefix,
    stateTopic: topics().state,
    availabilityTopic: topics().availability,
    commandTopic: topics().press,
    device: { id, name: 'Recording sync', model: 'Home LAN Bridge recording sync' },
    release: appRelease(),
  });

  /** The password only when it was given for this broker (or both came from the environment together). */
  const password = (url: string) => {
    const { sources } = deps.settings.view();
    if (sources.mqtt_password === 'env' && sources.mqtt_url === 'env') return s().mqtt_password;
    return deps.settings.secretFor('mqtt_password', url);
  };

  const link = createMqttLink({
    logger: deps.logger.child({ integration: 'mqtt' }),
    outbound: deps.outbound,
    availabilityTopic: () => topics().availability,
    target: () => {
      const v = s();
      return v.mqtt_enabled && v.mqtt_url ? { url: v.mqtt_url, username: v.mqtt_username, password: password(v.mqtt_url), clientId: v.mqtt_client_id || id.replace(/_/g, '-') } : null;
    },
    subscriptions: () => [topics().press, topics().haStatus, deviceConfigsFilter(s().mqtt_discovery_prefix, id)],
    onConnect: () => publishAll(),
    onMessage(topic, payload, { retain }) {
      // An earlier version's config under this device's node that this one no longer sends: emptied.
      if (topic.endsWith('/config')) return void retireConfigs(topic, payload.toString('utf8'));
      // A retained "online" is an old announcement: everything was sent when this connection began.
      if (topic === topics().haStatus) {
        if (!retain && payload.subarray(0, 64).toString('utf8').trim() === 'online') announcements.announced();
      } else if (topic === topics().press) onPress(payload, retain);
    },
    reconnect: deps.reconnect,
    clock: deps.clock,
  });
  // Home Assistant restarted: it lost the non-retained view, so send the configs and state again (at most once per few seconds).
  const announcements = createAnnouncementDebounce({ clock: deps.clock, republish: () => publishAll() });

  /** What Home Assistant sends when the button is pressed: the `payload_press` its discovery config declares. */
  const pressPayload = (): string => {
    const button = discoveryConfigs(discovery(), recordingsEntities).find((m) => m.topic.includes('/button/'));
    return String((JSON.parse(button!.payload) as { payload_press?: unknown }).payload_press);
  };
  /** Reasons a message on the press topic was ignored that were already logged (once each). */
  const ignored = new Set<string>();
  const ignore = (reason: string, message: string) => {
    if (ignored.has(reason)) return;
    ignored.add(reason);
    deps.logger.warn({ topic: topics().press }, message);
  };
  /**
   * Only a press as Home Assistant sends it starts a sync: not retained (a stored copy would start
   * one at every connect) and with the button's payload.
   */
  const onPress = (payload: Buffer, retain: boolean) => {
    if (retain) return ignore('retained', 'Sync now from MQTT ignored: the message is retained (a press is never stored on the broker; clear the retained message)');
    if (payload.toString('utf8') !== pressPayload()) return ignore('payload', "Sync now from MQTT ignored: the message is not the button's press payload");
    press();
  };

  const state = () => {
    const last = deps.runs.lastFinished();
    const running = deps.engine.current();
    return {
      last_sync_status: last?.status ?? null,
      last_sync_time: iso(last?.finished_at),
      last_sync_downloaded: last?.summary?.downloaded ?? null,
      last_sync_failed: last?.summary?.failed ?? null,
      last_sync_skipped: last?.summary?.skipped ?? null,
      sync_running: running !== null,
      downloads_in_progress: deps.progress.size(),
      ...adState(deps.adOutcomes()),
      next_run: deps.scheduler.status().next_run,
      box_reachable: last ? (last.summary?.boxes ?? 0) > 0 : null,
    };
  };

  const publishState = () => {
    link.publish(topics().state, JSON.stringify(state()), { retain: true });
    link.publish(topics().buttonAvailability, locked() ? 'offline' : 'online', { retain: true });
  };

  /** The configs this version sends. */
  const configs = (): Message[] =>
    discoveryConfigs(discovery(), recordingsEntities).map((m) => {
      if (!m.topic.includes('/button/')) return m;
      // The button is available only while the service is and a press would be obeyed.
      const c = JSON.parse(m.payload) as Record<string, unknown>;
      delete c.availability_topic;
      delete c.payload_available;
      delete c.payload_not_available;
      c.availability = [{ topic: topics().availability }, { topic: topics().buttonAvailability }];
      c.availability_mode = 'all';
      return { topic: m.topic, payload: JSON.stringify(c) };
    });

  const retireConfigs = (topic: string, payload: string) => {
    for (const m of retireStale(topic, payload, configs())) link.publish(m.topic, m.payload, { retain: true });
  };

  const publishAll = () => {
    for (const m of configs()) link.publish(m.topic, m.payload, { retain: true });
    publishState();
  };

  const press = () => {
    if (locked()) {
      deps.logger.warn('Sync now from MQTT refused: a passcode is set, and a broker message cannot unlock (use the page or POST /api/sync with a session)');
      return;
    }
    if (deps.engine.current()) {
      deps.logger.info('Sync now from MQTT: a sync is already running');
      return;
    }
    const { run } = deps.engine.start('manual');
    deps.logger.info({ run: run.id }, 'sync started from MQTT (Sync now)');
    setImmediate(publishState);
  };

  let timer: NodeJS.Timeout | null = null;
  let lastSettings = '';
  /** Where the messages went under the settings of the last (re)connect. */
  let placed: Placement | null = null;
  const placement = (): Placement => {
    const v = s();
    return { on: v.mqtt_enabled && v.mqtt_url !== '', url: v.mqtt_url, discoveryPrefix: v.mqtt_discovery_prefix, base: `${v.mqtt_topic_prefix}/recordings` };
  };
  let active = false;
  const tick = () => {
    if (!active) return;
    timer = setTimeout(tick, s().mqtt_publish_interval_seconds * 1000);
    timer.unref?.();
    // Broker settings changed since the last tick: connect again with them.
    const now = JSON.stringify([s().mqtt_enabled, s().mqtt_url, s().mqtt_username, password(s().mqtt_url), s().mqtt_client_id, s().mqtt_topic_prefix, s().mqtt_discovery_prefix]);
    if (now !== lastSettings) {
      lastSettings = now;
      // A new prefix, or MQTT off: take the old retained configs and state off the broker first (no ghost entities in HA).
      const next = placement();
      const goodbye = placed ? goodbyeFor(placed, next, id, recordingsEntities, [`${placed.base}/state`, `${placed.base}/sync_now/availability`]) : null;
      placed = next;
      void link.stop(goodbye ?? undefined).then(() => {
        if (active && s().mqtt_enabled && s().mqtt_url) link.start();
      });
      return;
    }
    if (link.status().status === 'connected') publishState();
  };
  let unsubscribe: (() => void) | null = null;

  return {
    link,
    publishState,
    start() {
      active = true;
      lastSettings = '';
      tick();
      unsubscribe = deps.settings.onChange((changed) => {
        if (!changed.some((k) => k.startsWith('mqtt_'))) return;
        if (timer) clearTimeout(timer);
        tick();
      });
    },
    async stop() {
      active = false;
      announcements.cancel();
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      timer = null;
      await link.stop();
    },
  };
}

/** The ad-removal sensors' values: marks count as cuts do, and a failure at any step is a failure. */
function adState(c: Record<AdOutcome, number>) {
  return { recordings_marked: c.marked, recordings_cut: c.cut, ad_removal_failed: c.detect_failed + c.mark_failed + c.cut_failed };
}
