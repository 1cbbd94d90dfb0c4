import os from 'node:os';
import path from 'node:path';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { systemClock, type Clock } from '../core/clock.js';
import { createHttpServer, listen } from '../core/http.js';
import type { Service } from '../core/lifecycle.js';
import type { Logger } from '../core/logger.js';
import { createOutbound, type Resolve } from '../core/outbound.js';
import { createSettingsStore, type SettingsStore } from '../core/settings-store.js';
import { BatteryEstimator } from './estimate.js';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import { registerDiscoveryRoutes } from './discovery/discovery-routes.js';
import type { InterfaceList } from './discovery/lan-scan.js';
import { createModbusConnection, type ConnectionFactory } from './gateway/connection.js';
import { createGatewayMemory } from './gateway/gateway-memory.js';
import { registerGatewayRoutes } from './gateway/gateway-routes.js';
import type { Values } from './gateway/block-reader.js';
import { applyReading, emptyLiveState, LiveStateStore, type LiveState } from './live-state.js';
import { registerLiveRoutes } from './live-routes.js';
import { registerClockRoute } from './clock-route.js';
import { withoutGatewayHost } from './public-state.js';
import { createHistory, registerHistoryRoutes, sampleFromState, type History } from './history/index.js';
import { Poller, type PollerConfig } from './poller.js';
import { createSecurity, type Security } from './security/gate.js';
import { ownerGateOf, registerSecurityRoutes } from './security/security-routes.js';
import type { OwnerGate } from '../core/owner-gate.js';
import { energySeedsFromEnv, energySettingsSchema, needsReconnect, type EnergySettings } from './settings.js';
import { registerSettingsRoutes } from './settings-routes.js';
import { registerImportRoutes } from './import/import-routes.js';
import { writeHapItem } from './homekit/store-item.js';
import { buildSnapshot } from './snapshot.js';
import { registerWebUi } from './web-ui.js';
import { contribute, type EnergyFeature, type FetchLike } from './features/feature.js';
import { energyFeatures } from './features/index.js';
import type { Snapshot } from './snapshot-schema.js';

export interface EnergyConfig {
  /** Folder for this service's files (settings, history database). */
  dataDir: string;
  /** HTTP port; 0 picks a free one (tests). Defaults to the `serverPort` setting. */
  port?: number;
  /** Address to bind: 0.0.0.0 so LAN browsers reach it; tests use 127.0.0.1. */
  host: string;
  /** Environment used to seed settings on first start and on reset. */
  env: NodeJS.ProcessEnv;
}

export interface EnergyDeps {
  logger: Logger;
  clock?: Clock;
  connect?: ConnectionFactory;
  /** Network interfaces the gateway scan derives /24s from (default os.networkInterfaces). Tests inject loopback. */
  interfaces?: () => InterfaceList;
  /** Modbus port the gateway scan probes (default 502). */
  discoveryPort?: number;
  /** Let the scan use internal (loopback) interfaces; honoured only together with an injected `interfaces`. */
  discoveryIncludeInternal?: boolean;
  /** Event stream tuning (tests: a small unread-buffer bound). */
  eventStream?: Pick<EventStreamOptions, 'maxBufferedBytes' | 'heartbeatMs' | 'maxPerAddress'>;
  /**
   * The HTTP transport for features (weather, webhooks), used after the outbound gate's check;
   * default: the gate's own client, connected to the checked address.
   */
  fetch?: FetchLike;
  /** Host-name resolution for the outbound gate (default: the system resolver). */
  resolve?: Resolve;
}

export interface EnergyService extends Service {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly state: LiveStateStore;
  readonly settings: SettingsStore<EnergySettings>;
  readonly poller: Poller;
  readonly events: EventStream;
  /** The passcode gate; `security.requireSession` is the preHandler for every gated route. */
  readonly security: Security;
  /** The same gate for the recording sync (one owner for both services; compose.ts passes it on). */
  readonly owner: OwnerGate;
  snapshot(): Snapshot;
}

/** Headers every answer of the bridge carries (the 403s of the host check included). */
async function registerEnergyHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    hsts: false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
}

/** The energy bridge: gateway poller, live state, snapshot, event stream and HTTP API. */
export function createEnergyService(config: EnergyConfig, deps: EnergyDeps): EnergyService {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ service: 'energy' });
  let settings: SettingsStore<EnergySettings> | null = null;
  let state: LiveStateStore | null = null;
  let poller: Poller | null = null;
  let history: History | null = null;
  let events: EventStream | null = null;
  let security: Security | null = null;
  let app: FastifyInstance | null = null;
  let url = '';
  const estimator = new BatteryEstimator();
  let lastPlant: Values = {};
  const unsubscribe: Array<() => void> = [];
  let features: EnergyFeature[] = [];

  // Made on first use, not at start: the recording sync's owner gate reads the same passcode and
  // sessions, also when the bridge itself could not start (its port taken, say).
  const securityOf = (): Security => (security ??= createSecurity({ file: path.join(config.dataDir, 'energy', 'security.json'), clock, logger }));
  const owner = ownerGateOf(securityOf, logger);

  const need = <T>(v: T | null, what: string): T => {
    if (v === null) throw new Error(`energy service not started (${what})`);
    return v;
  };

  const pollerConfig = (): PollerConfig => {
    const s = need(settings, 'settings').get();
    return {
      host: s.gateway.host,
      port: s.gateway.port,
      pollIntervalMs: s.polling.intervalMs,
      retryDelayMs: s.polling.retryDelayMs,
      timeoutMs: s.gateway.timeoutMs,
      inverterUnits: { from: s.gateway.inverterUnitFrom, to: s.gateway.inverterUnitTo },
      probeTimeoutMs: s.gateway.probeTimeoutMs,
    };
  };

  const snapshot = (): Snapshot => {
    const st = need(state, 'state').get();
    const s = need(settings, 'settings').get();
    const capacity = s.battery.capacityKwh ?? st.battery.ratedCapacityKwh;
    const reserve = s.battery.reserveSoc ?? st.battery.reserveSoc;
    const snap = buildSnapshot({ state: st, settings: s, now: clock.now(), estimate: estimator.estimate(clock.now(), st.battery.soc, capacity, reserve), history: history?.stats() ?? null });
    for (const f of features) f.snapshot?.(snap);
    return snap;
  };

  return {
    get url() {
      return url;
    },
    get app() {
      return need(app, 'app');
    },
    get state() {
      return need(state, 'state');
    },
    get settings() {
      return need(settings, 'settings');
    },
    get poller() {
      return need(poller, 'poller');
    },
    get events() {
      return need(events, 'events');
    },
    get security() {
      return need(security, 'security');
    },
    owner,
    snapshot,

    async start() {
      settings = createSettingsStore({
        file: path.join(config.dataDir, 'energy', 'settings.json'),
        schema: energySettingsSchema,
        seed: () => energySeedsFromEnv(config.env),
        logger,
      });
      const s = settings.get();
      const store = settings;
      history = createHistory({
        dataDir: config.dataDir,
        clock,
        logger,
        retentionMs: () => store.get().history.retentionDays * 86_400_000,
        legacyFiles: [path.join(config.dataDir, 'energy', 'history.json'), ...(config.env.LEGACY_HISTORY_FILE ? [path.resolve(config.env.LEGACY_HISTORY_FILE)] : [])],
        timeZone: () => store.get().general.timezone,
      });
      history.start();
      const hist = history;
      state = new LiveStateStore(emptyLiveState({ host: s.gateway.host, port: s.gateway.port }, s.polling.intervalMs));
      events = new EventStream(clock, {
        maxClients: () => store.get().general.eventStreamMaxClients,
        // Clients without a session see the gateway host blanked while a passcode is set.
        publicView: (data) => (security?.passcodes.isSet ? withoutGatewayHost(data as LiveState) : data),
        logger,
        ...deps.eventStream,
      });
      const st = state;
      const ev = events;
      unsubscribe.push(st.subscribe((next) => ev.broadcast(next)));
      const gate = securityOf();
      // Every outbound connection goes through the gate (main/core/outbound.ts); the gateway is a LAN device.
      const outbound = createOutbound({ resolve: deps.resolve, transport: deps.fetch });
      const modbus = deps.connect ?? createModbusConnection;
      const gatewayConnect: ConnectionFactory = (o) => modbus({ ...o, resolve: async (host) => (await outbound.checkHost({ purpose: 'lan-device' }, host)).address });
      const featureContext = { clock, logger, settings: () => store.get(), state: st, outbound, dataDir: config.dataDir, historyFile: hist.file, gate: gate.requireSession, snapshot, eventClients: () => ev.clientCount };
      features = energyFeatures.flatMap((f) => (f.create ? [f.create(featureContext)] : []));
      for (const f of features) await f.start?.();

      poller = new Poller(pollerConfig, gatewayConnect, clock, logger, {
        onReading(reading, at, durationMs) {
          // Registers that answered a non-0x02 exception are absent: keep their last values.
          lastPlant = { ...lastPlant, ...reading.plant };
          const cfg = pollerConfig();
          const next = applyReading(st.get(), { ...reading, plant: lastPlant }, at);
          next.gateway = { ...next.gateway, host: cfg.host, port: cfg.port };
          next.pollIntervalMs = cfg.pollIntervalMs;
          estimator.feed(at, next.power.battery);
          const withFeatures = contribute(features, next, at, logger, { durationMs });
          hist.append(sampleFromState(withFeatures, at));
          const failing = hist.writeError();
          withFeatures.storageError = failing ? { what: failing.what, message: failing.message, since: failing.since } : null;
          st.set(withFeatures);
        },
        onDisconnected(error, _at, durationMs) {
          estimator.reset();
          const cfg = pollerConfig();
          const next = { ...st.get(), connected: false, lastError: error, gateway: { ...st.get().gateway, host: cfg.host, port: cfg.port } };
          st.set(contribute(features, next, clock.now(), logger, { durationMs }));
        },
      }, createGatewayMemory(path.join(config.dataDir, 'energy', 'gateway-memory.json'), logger, clock.now));

      app = createHttpServer({ logger, appName: 'Energy bridge', hostCheck: { allowedHosts: () => store.get().general.allowedHosts }, headers: registerEnergyHeaders });
      registerLiveRoutes(app, { state: st, events: ev, snapshot, seesGatewayHost: (req) => gate.isUnlocked(req) });
      registerHistoryRoutes(app, hist);
      registerClockRoute(app, clock, () => store.get().general.timezone);
      const poll = poller;
      const applySettings = (prev: EnergySettings, next: EnergySettings) => {
        // Gateway edits drop the connection and poll with the new values; polling edits re-arm the
        // timer on the same connection. Retention and the other live fields are read where used.
        if (needsReconnect(prev, next)) void poll.reconnect();
        else if (JSON.stringify(prev.polling) !== JSON.stringify(next.polling)) poll.reschedule();
        for (const f of features) f.onSettings?.(prev, next);
      };
      registerSecurityRoutes(app, gate, logger);
      registerGatewayRoutes(app, { gate: gate.requireSession, poller: poll });
      registerSettingsRoutes(app, {
        settings: store,
        security: gate,
        seeds: () => energySeedsFromEnv(config.env),
        running: s,
        onChange: applySettings,
      });
      registerImportRoutes(app, {
        security: gate,
        logger,
        now: () => clock.now(),
        target: {
          settings: store,
          onSettingsChange: applySettings,
          passcodes: gate.passcodes,
          homekitDir: path.join(config.dataDir, 'energy', 'homekit'),
          history: hist,
          now: () => clock.now(),
          homekit: {
            writeItem: (key, value) => writeHapItem(path.join(config.dataDir, 'energy', 'homekit', 'persist'), key, value),
            reload: async () => {
              for (const f of features) if (f.name === 'homekit') await f.reload?.();
            },
          },
        },
      });
      registerDiscoveryRoutes(app, {
        gate: gate.requireSession,
        connect: gatewayConnect,
        settings: () => store.get(),
        interfaces: deps.interfaces ?? os.networkInterfaces,
        port: deps.discoveryPort ?? 502,
        includeInternal: deps.interfaces !== undefined && deps.discoveryIncludeInternal === true,
      });
      for (const f of features) f.routes?.(app);
      await registerWebUi(app);
      url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${await listen(app, config.port ?? s.general.serverPort, config.host, { service: 'energy bridge', variable: 'SERVER_PORT' })}`;
      poller.start();
      logger.info({ url }, 'energy bridge listening');
      // After the port opens, in the background (a worker): progress shows in /api/history/stats.
      void hist.importLegacy();
    },

    async stop() {
      await poller?.stop();
      for (const f of features.splice(0).reverse()) await f.stop?.();
      for (const u of unsubscribe.splice(0)) u();
      events?.close();
      await app?.close();
      history?.stop();
      history = null;
      // Sessions live in memory only: a restart locks again (the passcode hash persists).
      security = null;
      poller = null;
      app = null;
    },
  };
}
