import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { createHistory } from '../history/index.js';
import type { HistorySample } from '../history/sample.js';
import { derivePower } from '../live-state.js';
import { PlantModel, type PlantOptions } from '../simulator/plant-model.js';

const DAY_MS = 86_400_000;

export interface DemoPastOptions {
  /** The energy service's data folder (the history database goes where the service reads it). */
  dataDir: string;
  /** The moment the past ends (the demo clock's "now"), epoch ms. */
  until: number;
  /** How far back, in days (default 7, the default retention). */
  days?: number;
  /** Spacing of the samples: the demo's poll interval on its own clock (default 60 s). */
  stepMs?: number;
  logger: Logger;
  /** Plant options, so the past matches the simulator the demo then polls (same capacity, loads). */
  plant?: Omit<PlantOptions, 'now'>;
  /** The clock the plant follows once the past is written (the demo clock, starting at `until`). */
  live: () => number;
}

/**
 * Writes a realistic past into the energy history before the service starts: the gateway
 * simulator's plant model stepped through `days` days at the demo's pace, each step turned into a
 * history sample the way a poll would be (same power derivation), through the history module's
 * own API. The service then loads it like any history, and the daily totals are rebuilt from it.
 * Returns the number of samples written and the plant, which then carries on from where the past
 * ended (battery level, lifetime totals) on the `live` clock: serve it from the gateway simulator.
 */
export function seedDemoHistory(opts: DemoPastOptions): { samples: number; plant: PlantModel } {
  const step = Math.max(1000, opts.stepMs ?? 60_000);
  const from = opts.until - (opts.days ?? 7) * DAY_MS;
  let t = from;
  const clock: Clock = {
    now: () => t,
    setTimeout: () => ({}),
    setInterval: () => ({}),
    clear: () => undefined,
  };
  const history = createHistory({ dataDir: opts.dataDir, clock, logger: opts.logger, retentionMs: () => (opts.days ?? 7) * DAY_MS + DAY_MS });
  history.start();
  let written = 0;
  let seeding = true;
  // The battery starts the week 40 % full; the model keeps it between its reserve and full.
  const plant = new PlantModel({ initialSoc: 40, ...opts.plant, now: () => (seeding ? t : opts.live()) });
  try {
    for (t = from + step; t < opts.until; t += step) {
      plant.step();
      const power = derivePower(plant.plantValues());
      const hour = new Date(t).getHours() + new Date(t).getMinutes() / 60;
      const sample: HistorySample = {
        t,
        solar: power.solar,
        solarNative: power.solarNative,
        solarThirdParty: power.solarThirdParty,
        home: power.home,
        homeGeneral: power.homeGeneral,
        smartPort: power.smartPort,
        grid: power.grid,
        battery: power.battery,
        soc: Math.round(plant.soc * 10) / 10,
        // A mild day's temperature curve: coolest before dawn, warmest mid-afternoon.
        outdoorTemp: Math.round((18 + 5 * Math.sin((Math.PI * (hour - 9)) / 12)) * 10) / 10,
      };
      if (history.append(sample)) written++;
    }
  } finally {
    seeding = false;
    history.stop();
  }
  return { samples: written, plant };
}
