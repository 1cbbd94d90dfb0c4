import os from 'node:os';
import path from 'node:path';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock.js';
import { createHttpServer } from '../../core/http.js';
import type { Logger } from '../../core/logger.js';
import type { SettingsStore } from '../../core/settings-store.js';
import { registerClockRoute } from '../../core/clock-route.js';
import { registerDiscoveryRoutes } from '../discovery/discovery-routes.js';
import type { InterfaceList } from '../discovery/lan-scan.js';
import type { EventStream } from '../../core/event-stream.js';
import type { EnergyFeature } from '../feature.js';
import type { ConnectionFactory } from '../gateway/connection.js';
import { registerGatewayRoutes } from '../gateway/gateway-routes.js';
import type { History } from '../history/index.js';
import { registerHistoryRoutes } from '../history/routes.js';
import { registerImportRoutes } from '../import/import-routes.js';
import type { ImportTarget } from '../import/sigen-import.js';
import { registerLiveRoutes } from '../live/live-routes.js';
import type { LiveStateStore } from '../live-state.js';
import type { Poller } from '../live/poller.js';
import type { Security } from '../security/gate.js';
import { registerSecurityRoutes } from '../security/security-routes.js';
import { registerSettingsRoutes } from '../settings/routes.js';
import { checkListenSettings, type ListenSettingsDeps } from './listen-settings.js';
import { energySeedsFromEnv, needsReconnect, type EnergySettings } from '../settings/energy-settings.js';
import type { Snapshot } from '../published.js';

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

/** The bridge's HTTP server: its headers and the host check against the allowed host names. */
export function createEnergyApp(logger: Logger, settings: () => EnergySettings, requestTimeoutMs?: number): FastifyInstance {
  return createHttpServer({ logger, appName: 'Energy bridge', hostCheck: { allowedHosts: () => settings().general.allowedHosts }, headers: registerEnergyHeaders, requestTimeoutMs });
}

/**
 * What a saved settings change does to the running bridge: gateway edits drop the connection and
 * poll with the new values; polling edits re-arm the timer on the same connection; then each
 * feature is told. Retention and the other live fields are read where used.
 */
export function settingsChangeHandler(poller: Poller, features: readonly EnergyFeature[]): (prev: EnergySettings, next: EnergySettings) => void {
  return (prev, next) => {
    if (needsReconnect(prev, next)) void poller.reconnect();
    else if (JSON.stringify(prev.polling) !== JSON.stringify(next.polling)) poller.reschedule();
    for (const f of features) f.onSettings?.(prev, next);
  };
}

/** Where an import from the previous program writes in the running bridge (the feature keeping the HomeKit store restarts under the identity). */
export function importTargetOf(deps: { dataDir: string; settings: SettingsStore<EnergySettings>; security: Security; history: History; clock: Clock; features: readonly EnergyFeature[]; onSettingsChange: ImportTarget['onSettingsChange'] }): ImportTarget {
  const homekitDir = path.join(deps.dataDir, 'energy', 'homekit');
  return {
    settings: deps.settings,
    onSettingsChange: deps.onSettingsChange,
    passcodes: deps.security.passcodes,
    homekitDir,
    history: deps.history,
    now: () => deps.clock.now(),
    homekit: deps.features.find((f) => f.hapStore)?.hapStore,
  };
}

export interface EnergyRoutesDeps {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
  settings: SettingsStore<EnergySettings>;
  /** The settings the service started with (what a restart-only change is compared with). */
  running: EnergySettings;
  state: LiveStateStore;
  events: EventStream;
  snapshot: () => Snapshot;
  history: History;
  security: Security;
  poller: Poller;
  features: readonly EnergyFeature[];
  /** The gated gateway connections (the LAN scan probes through them). */
  connect: ConnectionFactory;
  discovery: { interfaces?: () => InterfaceList; port?: number; includeInternal?: boolean };
  /** How the pages listen: a port or address change that cannot work is refused (listen-settings.ts). */
  listening: Omit<ListenSettingsDeps, 'running'>;
}

/**
 * The bridge's own routes (the features add theirs): live state and events, history, clock,
 * passcode, gateway, settings, import and discovery, in that order.
 */
export function registerEnergyRoutes(app: FastifyInstance, deps: EnergyRoutesDeps): void {
  const { settings: store, security: gate, history, clock, logger } = deps;
  registerLiveRoutes(app, { state: deps.state, events: deps.events, snapshot: deps.snapshot, seesGatewayHost: (req) => gate.isUnlocked(req) });
  registerHistoryRoutes(app, history);
  registerClockRoute(app, clock, () => store.get().general.timezone);
  const applySettings = settingsChangeHandler(deps.poller, deps.features);
  registerSecurityRoutes(app, gate, logger);
  registerGatewayRoutes(app, { gate: gate.requireSession, poller: deps.poller });
  registerSettingsRoutes(app, {
    settings: store,
    security: gate,
    seeds: () => energySeedsFromEnv(deps.env),
    running: deps.running,
    onChange: applySettings,
    checkListening: (prev, next) => checkListenSettings({ ...deps.listening, running: deps.running }, prev, next),
  });
  registerImportRoutes(app, {
    security: gate,
    logger,
    now: () => clock.now(),
    target: importTargetOf({ dataDir: deps.dataDir, settings: store, security: gate, history, clock, features: deps.features, onSettingsChange: applySettings }),
  });
  registerDiscoveryRoutes(app, {
    gate: gate.requireSession,
    connect: deps.connect,
    settings: () => store.get(),
    interfaces: deps.discovery.interfaces ?? os.networkInterfaces,
    port: deps.discovery.port ?? 502,
    includeInternal: deps.discovery.interfaces !== undefined && deps.discovery.includeInternal === true,
  });
}
