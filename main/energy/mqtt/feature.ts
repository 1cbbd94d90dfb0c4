import type { EnergyFeature, EnergyFeatureModule, FeatureContext, FeatureFactory, FeatureSettings, SnapshotEntity, SnapshotView } from '../feature.js';
import { settingsSection, withDefaults } from '../settings-section.js';
import { appRelease } from '../../core/app-version.js';
import { createAnnouncementDebounce } from '../../integrations/mqtt/announcements.js';
import { discoveryConfigs, type DiscoveryContext, type Message } from '../../integrations/mqtt/discovery.js';
import { installId } from '../../integrations/mqtt/identity.js';
import { createMqttLink, type MqttLink } from '../../integrations/mqtt/link.js';
import { deviceConfigsFilter, goodbyeFor, retireStale, type Placement } from '../../integrations/mqtt/retire.js';
import { mqttSeeds, mqttSettings, publicMqtt, type MqttSettings } from '../../integrations/mqtt/settings.js';

export interface EnergyMqttOptions {
  /** The service's curated snapshot (what the topics carry). */
  snapshot: () => SnapshotView;
  /** The entities announced, each read from the snapshot: the core's and every feature's (features.ts). */
  entities: readonly SnapshotEntity[];
  /** Hands a command entity's message to the feature that declared it (the service's `ctx.command`). */
  command?: (key: string, payload: string) => Promise<void>;
  reconnect?: { minMs: number; maxMs: number };
}

/**
 * The energy bridge on MQTT: Home Assistant discovery for its sensors, one retained JSON state
 * topic sent after a poll (at most once per `publishIntervalSeconds`), the bridge's availability
 * through the broker's last will, and the gateway's (`<prefix>/energy/gateway`: `online` while it
 * answers the polls, `offline` from the first poll it does not, sent as it changes): the readings
 * need both, so Home Assistant shows them unavailable rather than the last watts as current.
 * Configs an earlier version left under this device's node and this version no longer sends are
 * emptied on connect (no duplicate entities after an upgrade). Publishing happens after the poll's
 * state is published, on a later turn of the event loop, and never waits for the broker: it cannot
 * delay a poll.
 */
/** The state JSON: one key per entity, plus the active alerts' names (bounded). */
export function energyState(entities: readonly SnapshotEntity[], s: SnapshotView): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of entities) if (e.value) out[e.key] = e.value(s);
  const alerts = Array.isArray(s.alerts) ? (s.alerts as ReadonlyArray<{ name: string }>) : [];
  out.alert_names = alerts.slice(0, 24).map((a) => a.name.slice(0, 60));
  out.updated = s.lastUpdated;
  return out;
}

export function createEnergyMqttFeature(ctx: FeatureContext<FeatureSettings<typeof mqttSection>>, opts: EnergyMqttOptions): EnergyFeature<FeatureSettings<typeof mqttSection>> & { link: MqttLink } {
  const id = installId('energy', ctx.dataDir);
  const cfg = (): MqttSettings => ctx.settings().mqtt;
  const topics = () => {
    const base = `${cfg().topicPrefix}/energy`;
    return { availability: `${base}/availability`, gateway: `${base}/gateway`, state: `${base}/state`, command: `${base}/command/`, haStatus: `${cfg().discoveryPrefix}/status`, configs: deviceConfigsFilter(cfg().discoveryPrefix, id) };
  };
  const discovery = (): DiscoveryContext => ({
    discoveryPrefix: cfg().discoveryPrefix,
    stateTopic: topics().state,
    availabilityTopic: topics().availability,
    gatewayAvailabilityTopic: topics().gateway,
    commandTopicFor: (e) => `${topics().command}${e.key}`,
    device: { id, name: 'Energy bridge', model: 'Home LAN Bridge energy bridge' },
    release: appRelease(),
  });

  const commandKeys = new Set(opts.entities.filter((e) => e.component === 'select' || e.component === 'number' || e.component === 'button').map((e) => e.key));
  const command = async (key: string, payload: string) => {
    try {
      await opts.command!(key, payload);
    } catch (err) {
      ctx.logger.error({ err, key }, 'MQTT command failed');
    }
  };

  let lastPublish = 0;
  let pending: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let active = false;
  /** What the gateway topic says on this connection ('' before it was sent). */
  let gatewaySaid = '';

  const link: MqttLink = createMqttLink({
    logger: ctx.logger.child({ integration: 'mqtt' }),
    outbound: ctx.outbound,
    availabilityTopic: () => topics().availability,
    target: () => {
      const m = cfg();
      return m.enabled && m.url ? { url: m.url, username: m.username, password: m.password, clientId: m.clientId || id.replace(/_/g, '-') } : null;
    },
    subscriptions: () => [topics().haStatus, topics().configs, ...(commandKeys.size ? [`${topics().command}+`] : [])],
    onConnect: () => {
      gatewaySaid = '';
      publishAll();
    },
    onMessage(topic, payload, { retain }) {
      // A retained "online" is an old announcement: everything was sent when this connection began.
      if (topic.startsWith(topics().command)) {
        // A command entity (select, number, button). A retained one is old: never replayed on a connect.
        const key = topic.slice(topics().command.length);
        if (!retain && commandKeys.has(key) && opts.command) void command(key, payload.subarray(0, 64).toString('utf8').trim());
      } else if (topic === topics().haStatus) {
        if (!retain && payload.subarray(0, 64).toString('utf8').trim() === 'online') announcements.announced();
      } else if (topic.endsWith('/config')) for (const m of retireStale(topic, payload.toString('utf8'), configs())) link.publish(m.topic, m.payload, { retain: true });
    },
    reconnect: opts.reconnect,
    clock: ctx.clock,
  });
  // Home Assistant restarted: it lost the non-retained view, so send the configs and state again (at most once per few seconds).
  const announcements = createAnnouncementDebounce({ clock: ctx.clock, republish: () => publishAll() });

  const publishGateway = () => {
    const now = ctx.state.get().connected ? 'online' : 'offline';
    if (now !== gatewaySaid && link.publish(topics().gateway, now, { retain: true })) gatewaySaid = now;
  };

  const publishState = () => {
    pending = null;
    publishGateway();
    lastPublish = ctx.clock.now();
    link.publish(topics().state, JSON.stringify(energyState(opts.entities, opts.snapshot())), { retain: true });
  };

  /** The configs this version sends, with the units that follow the settings (temperature, currency). */
  const configs = (): Message[] => {
    const units = opts.snapshot().units;
    return discoveryConfigs(discovery(), opts.entities.map((e) => (e.unitFrom ? { ...e, ...e.unitFrom(units) } : e)));
  };

  const publishAll = () => {
    for (const m of configs()) link.publish(m.topic, m.payload, { retain: true });
    publishState();
  };

  // Called after each poll's state is set: the send runs on a later turn (setImmediate / a timer).
  const onState = () => {
    if (link.status().status !== 'connected') return;
    // The gateway came or went: said at once (on a later turn), not at the next state send.
    if ((ctx.state.get().connected ? 'online' : 'offline') !== gatewaySaid) setImmediate(publishGateway);
    if (pending) return;
    const wait = lastPublish + cfg().publishIntervalSeconds * 1000 - ctx.clock.now();
    pending = wait > 0 ? setTimeout(publishState, wait) : (setImmediate(publishState) as unknown as NodeJS.Timeout);
  };

  const cancel = () => {
    if (pending) {
      clearTimeout(pending);
      clearImmediate(pending as unknown as NodeJS.Immediate);
    }
    pending = null;
  };

  return {
    name: 'mqtt',
    link,
    start() {
      active = true;
      unsubscribe = ctx.state.subscribe(onState);
      if (cfg().enabled) link.start();
    },
    async stop() {
      active = false;
      unsubscribe?.();
      cancel();
      announcements.cancel();
      await link.stop();
    },
    onSettings(prev, next) {
      if (JSON.stringify(prev.mqtt) === JSON.stringify(next.mqtt)) return;
      cancel();
      // A new prefix, or MQTT off: take the old retained configs and state off the broker first (no ghost entities in HA).
      const old = placement(prev.mqtt);
      const goodbye = goodbyeFor(old, placement(next.mqtt), id, opts.entities, [`${old.base}/state`, `${old.base}/gateway`]);
      void link.stop(goodbye ?? undefined).then(() => {
        if (active && next.mqtt.enabled) link.start();
      });
    },
  };
}

/** Where the energy bridge's messages go under these settings. */
function placement(m: MqttSettings): Placement {
  return { on: m.enabled && m.url !== '', url: m.url, discoveryPrefix: m.discoveryPrefix, base: `${m.topicPrefix}/energy` };
}

/** The MQTT feature as the energy bridge's feature list takes it. */
export const mqttFeature: FeatureFactory<typeof mqttSection> = (ctx) => {
  const { snapshot, entities, command } = ctx;
  if (!snapshot || !entities) throw new Error("the MQTT feature needs the service's snapshot and entities");
  return createEnergyMqttFeature(ctx, { snapshot, entities, command });
};

/** The energy bridge's `mqtt` settings section: the password is shown only as `passwordSet`. */
export const mqttSection = settingsSection({
  key: 'mqtt',
  schema: withDefaults(mqttSettings),
  seed: ({ env }) => mqttSeeds(env),
  publicView: (m, blank) => ({ ...publicMqtt(m), ...(blank ? { url: '' } : {}) }),
  readOnly: ['passwordSet'],
});

/** MQTT as the energy bridge's feature list takes it: its settings section and the running feature. */
export const mqttModule: EnergyFeatureModule<typeof mqttSection> = { name: 'mqtt', settings: [mqttSection], create: mqttFeature };
