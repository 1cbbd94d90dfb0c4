import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { systemClock, type Clock } from '../core/clock.js';
import { listen } from '../core/http.js';
import { startFeatures } from '../core/feature.js';
import { createDisposer, type Service } from '../core/lifecycle.js';
import type { Logger } from '../core/logger.js';
import { createOutbound, type Resolve } from '../core/outbound.js';
import { createSettingsStore, type SettingsStore } from '../core/settings-store.js';
import type { OwnerGate } from '../core/owner-gate.js';
import { requireOwner } from '../core/owner-only.js';
import { BatteryEstimator } from './live/estimate.js';
import type { EventStream, EventStreamOptions } from '../core/event-stream.js';
import type { InterfaceList } from './discovery/lan-scan.js';
import type { ConnectionFactory } from './gateway/connection.js';
import { gatewayLink } from './gateway/gateway-link.js';
import type { LiveStateStore } from './live-state.js';
import type { History } from './history/index.js';
import { replayPolls } from './history/replay.js';
import type { Poller } from './live/poller.js';
import { createSecurity, type Security } from './security/gate.js';
import { ownerGateOf } from './security/security-routes.js';
import { energySeedsFromEnv, energySettingsSchema, type EnergySettings } from './settings/energy-settings.js';
import { registerWebUi } from './service/web-ui.js';
import type { EnergyFeature, FetchLike } from './feature.js';
import { createPricesCore } from './prices/prices-core.js';
import type { EnergyLiveState, Snapshot } from './published.js';
import { createEnergyFeatures } from './service/features.js';
import { createEnergyHistory } from './service/history.js';
import { createEnergyLive } from './service/live.js';
import { createEnergyPoller } from './service/poller.js';
import { createEnergyApp, registerEnergyRoutes } from './service/routes.js';
import { createLiveSnapshot, type LiveSnapshot } from './service/snapshot.js';
import type { PortClaim } from '../core/listen-check.js';
import { explainListenError, type PortOwner } from '../core/startup.js';

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
  /** Ports the app's other service holds (compose.ts: the recording sync's): the server port may not take them. */
  otherPorts?: () => PortClaim[];
  /** How long a request may take to arrive before 408 (default 30 s, core/http.ts; tests shorten it). */
  requestTimeoutMs?: number;
  /** The longest an outbound request may wait for an answer (default: each client's own; tests shorten it for a silent host). */
  outboundTimeoutMs?: number;
}

export interface EnergyService extends Service {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly state: LiveStateStore<EnergyLiveState>;
  readonly settings: SettingsStore<EnergySettings>;
  readonly poller: Poller;
  readonly events: EventStream;
  /** The passcode gate; `security.requireSession` is the preHandler for every gated route. */
  readonly security: Security;
  /** The same gate for the recording sync (one owner for both services; compose.ts passes it on). */
  readonly owner: OwnerGate;
  snapshot(): Snapshot;
}

/**
 * The energy bridge: gateway poller, live state, snapshot, event stream and HTTP API. This is the
 * wiring only: each part is made by its own module (service/*.ts, gateway/gateway-link.ts) from what
 * it is passed, and the features come from the one list (features.ts).
 */
export function createEnergyService(config: EnergyConfig, deps: EnergyDeps): EnergyService {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ service: 'energy' });
  const estimator = new BatteryEstimator();
  /** Everything a start made, in one object (DESIGN rule 9, like the recording sync); its releases are in `disposer`. */
  let started: Started | null = null;
  let url = '';
  let security: Security | null = null;
  const disposer = createDisposer();

  // Made on first use, not at start: the recording sync's owner gate reads the same passcode and
  // sessions, also when the bridge itself could not start (its port taken, say).
  const securityOf = (): Security => (security ??= createSecurity({ file: path.join(config.dataDir, 'energy', 'security.json'), clock, logger }));
  const owner = ownerGateOf(securityOf, logger);

  const need = (what: string): Started => {
    if (started === null) throw new Error(`energy service not started (${what})`);
    return started;
  };

  // Built once per poll (the live state or the settings replaced), then the same frozen object to every consumer.
  const snapshot = (): Snapshot => need('state').snapshot.current();

  return {
    get url() {
      return url;
    },
    get app() {
      return need('app').app;
    },
    get state() {
      return need('state').state;
    },
    get settings() {
      return need('settings').settings;
    },
    get poller() {
      return need('poller').poller;
    },
    get events() {
      return need('events').events;
    },
    get security() {
      if (security === null) throw new Error('energy service not started (security)');
      return security;
    },
    owner,
    snapshot,

    async start() {
      try {
        await startParts();
      } catch (err) {
        await disposer.run().catch(() => undefined);
        throw err;
      }
    },

    async stop() {
      await disposer.run();
      // Sessions live in memory only: a restart locks again (the passcode hash persists).
      security = null;
    },
  };

  async function startParts(): Promise<void> {
    const settingsFile = path.join(config.dataDir, 'energy', 'settings.json');
    const store = createSettingsStore({
      file: settingsFile,
      schema: energySettingsSchema,
      seed: () => energySeedsFromEnv(config.env),
      logger,
    });
    const running = store.get();
    const current = () => store.get();
    const hist = createEnergyHistory({ dataDir: config.dataDir, env: config.env, clock, logger, settings: current });
    hist.start();
    disposer.add(() => hist.stop());
    const server = createEnergyApp(logger, current, deps.requestTimeoutMs);
    disposer.add(() => server.close());
    const live = createEnergyLive({ settings: current, clock, logger, passcodeSet: () => security?.passcodes.isSet ?? false, snapshot: () => started?.snapshot.current() ?? null, eventStream: deps.eventStream });
    // Released before the app closes: an open event stream would hold the close.
    disposer.add(() => {
      live.unsubscribe();
      live.events.close();
    });
    const gate = securityOf();
    // Every outbound connection goes through the gate (main/core/outbound.ts); the gateway is a LAN device.
    const outbound = createOutbound({ resolve: deps.resolve, transport: deps.fetch, timeoutMs: deps.outboundTimeoutMs });
    const connect = gatewayLink(outbound, deps.connect);

    // Live prices (Amber, Octopus) are core, like the tariff: the features read the book from their context.
    const prices = createPricesCore({ clock, logger, settings: current, outbound, dataDir: config.dataDir, gate: gate.requireSession });
    // The price source runs first, with the features' hooks (start, stop, settings, routes, snapshot).
    const features = [
      prices,
      ...createEnergyFeatures({ clock, logger, settings: current, state: live.state, outbound, dataDir: config.dataDir, historyFile: hist.file, gate: gate.requireSession, snapshot, eventClients: () => live.events.clientCount, prices: () => prices.book(), gatewayConnect: connect, ownerOnly: requireOwner(gate.hasSession) }),
    ];
    const poll = createEnergyPoller({ dataDir: config.dataDir, settings: current, state: live.state, features, history: hist, estimator, connect, clock, logger });
    const liveSnapshot = createLiveSnapshot(() => ({ state: live.state.get(), settings: store.get(), clock, estimator, history: hist, features, logger }));
    started = { settings: store, state: live.state, events: live.events, history: hist, app: server, poller: poll, features, snapshot: liveSnapshot };
    // In list order; each stops in reverse, before the event stream and the app close.
    disposer.add(await startFeatures(features, (err, f) => logger.error({ err, feature: f.name }, 'feature failed to stop')));

    registerEnergyRoutes(server, {
      dataDir: config.dataDir,
      env: config.env,
      clock,
      logger,
      settings: store,
      running,
      state: live.state,
      events: live.events,
      snapshot,
      history: hist,
      security: gate,
      poller: poll,
      features,
      connect,
      discovery: { interfaces: deps.interfaces, port: deps.discoveryPort, includeInternal: deps.discoveryIncludeInternal },
      listening: { host: config.host, ownPort: () => (url ? Number(new URL(url).port) : 0), others: deps.otherPorts ?? (() => []) },
    });
    for (const f of features) f.routes?.(server);
    await registerWebUi(server);
    // The port comes from SERVER_PORT, else from the settings file: a failure names the one that set it.
    const port = config.port ?? running.general.serverPort;
    const portOwner: PortOwner = { service: 'energy bridge', variable: 'SERVER_PORT', ...(config.port === undefined ? { setting: { name: 'general.serverPort', file: settingsFile } } : {}) };
    const bound = await listen(server, port, config.host, portOwner).catch((err: unknown) => {
      throw explainListenError(err, port, config.host, portOwner);
    });
    url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${bound}`;
    // Stored polls the features read back (today's totals, days their tables lack), once for all
    // of them and in batches now that the port answers; each holds its live polls until then.
    const replays = features.flatMap((f) => f.replay?.(clock.now()) ?? []);
    const stopReplay = new AbortController();
    const replaying = replayPolls(hist.file, replays, clock.now(), { logger, signal: stopReplay.signal });
    disposer.add(async () => {
      stopReplay.abort();
      await replaying;
    });
    poll.start();
    disposer.add(() => poll.stop());
    logger.info({ url }, 'energy bridge listening');
    // After the port opens, in the background (a worker): progress shows in /api/history/stats.
    void hist.importLegacy();
    // A history written by version 5 gets its minute and hour tiers, an hour of samples a turn.
    void hist.upgrade();
  }
}

/** What one start of the energy bridge made (its releases are in the service's disposer). */
interface Started {
  settings: SettingsStore<EnergySettings>;
  state: LiveStateStore<EnergyLiveState>;
  events: EventStream;
  history: History;
  app: FastifyInstance;
  poller: Poller;
  features: readonly EnergyFeature[];
  /** This poll's snapshot (service/snapshot.ts). */
  snapshot: LiveSnapshot;
}
