import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { BatteryEstimator } from '../live/estimate.js';
import type { EnergyFeature } from '../feature.js';
import type { History } from '../history/index.js';
import type { LiveState } from '../live-state.js';
import type { EnergySettings } from '../settings/energy-settings.js';
import { buildSnapshot } from '../live/snapshot.js';
import type { Snapshot } from '../published.js';

export interface SnapshotParts {
  state: LiveState;
  settings: EnergySettings;
  clock: Clock;
  estimator: BatteryEstimator;
  history: History | null;
  features: readonly EnergyFeature[];
  logger?: Logger;
}

/** Freezes a plain JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/**
 * The curated snapshot now: the live state with the battery estimate (the size and reserve the
 * owner set, else what the gateway reports), the history's size, then each feature's block (its
 * hook returns the block; it never writes into the snapshot). The result is a fresh, deeply frozen
 * object that shares nothing with the live state.
 */
export function energySnapshot({ state, settings, clock, estimator, history, features, logger }: SnapshotParts): Snapshot {
  const capacity = settings.battery.capacityKwh ?? state.battery.ratedCapacityKwh;
  const reserve = settings.battery.reserveSoc ?? state.battery.reserveSoc;
  const base = deepFreeze(structuredClone(buildSnapshot({ state, settings, now: clock.now(), estimate: estimator.estimate(clock.now(), state.battery.soc, capacity, reserve), history: history?.stats() ?? null })));
  let blocks: Record<string, unknown> = {};
  for (const f of features) {
    if (!f.snapshot) continue;
    try {
      const block = f.snapshot(base);
      if (block) blocks = { ...blocks, ...block };
    } catch (err) {
      logger?.error({ err, feature: f.name }, 'feature failed on snapshot');
    }
  }
  // The features' blocks fill what their modules declare (features.ts composes the schema from them).
  return deepFreeze({ ...base, ...structuredClone(blocks) } as Snapshot);
}

export interface LiveSnapshot {
  /** This poll's snapshot: built on first use after the live state (or the settings) changed, then the same object to every caller. */
  current(): Snapshot;
  /** How many times it was built (tests, metrics). */
  readonly builds: number;
}

/**
 * The snapshot assembled once per poll: every consumer (GET /api/snapshot, the event stream,
 * MQTT, metrics) gets the same frozen object until the live state or the settings are replaced.
 */
export function createLiveSnapshot(parts: () => SnapshotParts): LiveSnapshot {
  let builtFor: { state: LiveState; settings: EnergySettings } | null = null;
  let snap: Snapshot | null = null;
  let builds = 0;
  return {
    current() {
      const p = parts();
      if (snap === null || builtFor?.state !== p.state || builtFor.settings !== p.settings) {
        snap = energySnapshot(p);
        builtFor = { state: p.state, settings: p.settings };
        builds++;
      }
      return snap;
    },
    get builds() {
      return builds;
    },
  };
}
