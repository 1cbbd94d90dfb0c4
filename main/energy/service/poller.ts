import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { CounterCheck } from '../live/counter-check.js';
import type { BatteryEstimator } from '../live/estimate.js';
import { contribute, type EnergyFeature } from '../feature.js';
import type { Values } from '../gateway/block-reader.js';
import type { ConnectionFactory } from '../gateway/connection.js';
import { createGatewayMemory } from '../gateway/gateway-memory.js';
import { sampleFromState, type History } from '../history/index.js';
import { applyReading, type LiveStateStore } from '../live-state.js';
import { Poller, type PollerConfig } from '../live/poller.js';
import type { EnergySettings } from '../settings/energy-settings.js';

/** What the poller reads from the settings (on every poll, so edits apply without a restart). */
export function pollerConfigOf(s: EnergySettings): PollerConfig {
  return {
    host: s.gateway.host,
    port: s.gateway.port,
    pollIntervalMs: s.polling.intervalMs,
    retryDelayMs: s.polling.retryDelayMs,
    timeoutMs: s.gateway.timeoutMs,
    inverterUnits: { from: s.gateway.inverterUnitFrom, to: s.gateway.inverterUnitTo },
    probeTimeoutMs: s.gateway.probeTimeoutMs,
  };
}

export interface EnergyPollerDeps {
  dataDir: string;
  settings: () => EnergySettings;
  state: LiveStateStore;
  /** The running features: each poll's state passes through their `onPoll` before it is published. */
  features: readonly EnergyFeature[];
  history: History;
  estimator: BatteryEstimator;
  connect: ConnectionFactory;
  clock: Clock;
  logger: Logger;
}

/**
 * The gateway poller with what the bridge does on each poll: a reading's lifetime counters are
 * checked (a bad read keeps the last good value, see counter-check.ts), it becomes the live state
 * (the plant registers that did not answer keep their last values), feeds the battery estimate, passes
 * through the features, is appended to the history (a failing write shows as `storageError`) and is
 * published; a lost connection publishes `connected: false`. Not started.
 */
export function createEnergyPoller({ dataDir, settings, state, features, history, estimator, connect, clock, logger }: EnergyPollerDeps): Poller {
  const config = () => pollerConfigOf(settings());
  let lastPlant: Values = {};
  // The one place a reading is accepted: every consumer of the live state sees checked counters.
  const counters = new CounterCheck(logger);
  let counterGateway = '';
  return new Poller(
    config,
    connect,
    clock,
    logger,
    {
      onReading(reading, at, durationMs) {
        const cfg = config();
        // Another gateway has counters of its own.
        if (`${cfg.host}:${cfg.port}` !== counterGateway) {
          counters.reset();
          counterGateway = `${cfg.host}:${cfg.port}`;
        }
        // Registers that answered a non-0x02 exception are absent: keep their last values.
        lastPlant = { ...lastPlant, ...counters.check(reading.plant, at) };
        const next = applyReading(state.get(), { ...reading, plant: lastPlant }, at);
        next.gateway = { ...next.gateway, host: cfg.host, port: cfg.port };
        next.pollIntervalMs = cfg.pollIntervalMs;
        estimator.feed(at, next.power.battery);
        const withFeatures = contribute(features, next, at, logger, { durationMs });
        history.append(sampleFromState(withFeatures, at));
        const failing = history.writeError();
        withFeatures.storageError = failing ? { what: failing.what, message: failing.message, since: failing.since } : null;
        state.set(withFeatures);
      },
      onDisconnected(error, _at, durationMs) {
        estimator.reset();
        const cfg = config();
        const next = { ...state.get(), connected: false, lastError: error, gateway: { ...state.get().gateway, host: cfg.host, port: cfg.port } };
        state.set(contribute(features, next, clock.now(), logger, { durationMs }));
      },
    },
    createGatewayMemory(path.join(dataDir, 'energy', 'gateway-memory.json'), logger, clock.now),
  );
}
