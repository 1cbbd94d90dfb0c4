import type { Clock } from '../core/clock.js';
import type { BatteryEstimator } from './estimate.js';
import type { EnergyFeature } from './feature.js';
import type { History } from './history/index.js';
import type { LiveState } from './live-state.js';
import type { EnergySettings } from './settings.js';
import { buildSnapshot } from './snapshot.js';
import type { Snapshot } from './snapshot-schema.js';

export interface SnapshotParts {
  state: LiveState;
  settings: EnergySettings;
  clock: Clock;
  estimator: BatteryEstimator;
  history: History | null;
  features: readonly EnergyFeature[];
}

/**
 * The curated snapshot now: the live state with the battery estimate (the size and reserve the
 * owner set, else what the gateway reports), the history's size, then each feature's block.
 */
export function energySnapshot({ state, settings, clock, estimator, history, features }: SnapshotParts): Snapshot {
  const capacity = settings.battery.capacityKwh ?? state.battery.ratedCapacityKwh;
  const reserve = settings.battery.reserveSoc ?? state.battery.reserveSoc;
  const snap = buildSnapshot({ state, settings, now: clock.now(), estimate: estimator.estimate(clock.now(), state.battery.soc, capacity, reserve), history: history?.stats() ?? null });
  for (const f of features) f.snapshot?.(snap);
  return snap;
}
