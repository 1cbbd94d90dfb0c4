import type { RecordingFeatureModule } from '../features/feature.js';
import type { RecordingRow } from '../store/recordings-store.js';
import { createAdRemoval } from './ad-removal.js';
import { registerAdScanRoute } from './scan-route.js';
import { adRemovalSettings } from './settings.js';
import { defaultAdTools } from './tools.js';
import type { AdRemovalDeps } from './ad-removal.js';
import type { AdTools } from './tools.js';

/** What ad removal reads besides its context: the detector configuration's folders, and its test seams. */
interface AdRemovalNeeds {
  config: { configDir: string; bundledDetectorIni: string };
  deps: { adTools?: AdTools; adRemoval?: Pick<AdRemovalDeps, 'scanTimeout' | 'betweenRenames'>; adScan?: (row: RecordingRow, signal: AbortSignal) => Promise<void> };
}

/**
 * Ad removal (comskip + ffmpeg): recovers a cut interrupted by a crash before the first sync, scans
 * and cuts each new download (first of the after-download steps), prunes uncut copies past their
 * retention, and serves the re-scan button.
 */
export const adRemovalFeature: RecordingFeatureModule<typeof adRemovalSettings, AdRemovalNeeds> = {
  name: 'adRemoval',
  settings: adRemovalSettings,
  create(ctx) {
    const adRemoval = createAdRemoval({
      db: ctx.db, recordings: ctx.recordings, shows: ctx.shows, settings: ctx.settings, progress: ctx.progress, clock: ctx.clock, logger: ctx.logger,
      tools: ctx.deps.adTools ?? defaultAdTools, configDir: ctx.config.configDir, bundledDetectorIni: ctx.config.bundledDetectorIni, ...ctx.deps.adRemoval,
    });
    adRemoval.recoverAtStart();
    return {
      hooks: { afterDone: (row, show, signal) => adRemoval.afterDone(row, show, signal), housekeeping: () => adRemoval.housekeeping() },
      routes: (app) => registerAdScanRoute(app, { recordings: ctx.recordings, guard: ctx.guard, logger: ctx.logger, stopSignal: ctx.stopSignal, scan: ctx.deps.adScan ?? adRemoval.scan }),
      capabilities: ['ad_scan'],
      stop: () => adRemoval.stop(),
    };
  },
};
