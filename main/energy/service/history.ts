import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { createHistory, type History } from '../history/index.js';
import type { EnergySettings } from '../settings/energy-settings.js';

export interface EnergyHistoryDeps {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
  /** Current settings: retention and the time zone are read on every use, so edits apply live. */
  settings: () => EnergySettings;
}

/**
 * The bridge's history as the service runs it: `<dataDir>/energy/history.db`, the retention and
 * time zone from the settings, and the legacy files to import once (the old `history.json` beside
 * it and `LEGACY_HISTORY_FILE`). Not started: the service starts and stops it.
 */
export function createEnergyHistory({ dataDir, env, clock, logger, settings }: EnergyHistoryDeps): History {
  return createHistory({
    dataDir,
    clock,
    logger,
    retentionMs: () => settings().history.retentionDays * 86_400_000,
    minuteRetentionMs: () => settings().history.minuteRetentionDays * 86_400_000,
    legacyFiles: [path.join(dataDir, 'energy', 'history.json'), ...(env.LEGACY_HISTORY_FILE ? [path.resolve(env.LEGACY_HISTORY_FILE)] : [])],
    timeZone: () => settings().general.timezone,
  });
}
