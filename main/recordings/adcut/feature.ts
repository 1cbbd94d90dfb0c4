import { z } from 'zod';
import type { RecordingFeatureModule, SettingDef } from '../features/feature.js';
import { createAdRemoval } from './ad-removal.js';
import { defaultAdTools } from './tools.js';

export const adRemovalSettings = {
  ad_removal_enabled: {
    schema: z.boolean(),
    default: false,
    applies: 'live',
    label: 'Remove ads',
    description: 'Look for ad breaks in new recordings and cut them out, for the shows set to do so.',
  },
  ad_original_retention_days: {
    schema: z.number().int().min(0).max(3650),
    default: 7,
    applies: 'live',
    label: 'Keep uncut copies (days)',
    description: 'How many days the uncut copy of a recording is kept after its ads are cut, in case a cut went wrong. 0 removes it at once.',
  },
} as const satisfies Record<string, SettingDef>;

/**
 * Ad removal (comskip + ffmpeg): recovers a cut interrupted by a crash before the first sync, scans
 * and cuts each new download (first of the after-download steps), prunes uncut copies past their
 * retention, and serves the re-scan button.
 */
export const adRemovalFeature: RecordingFeatureModule<typeof adRemovalSettings> = {
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
      seams: { adScan: adRemoval.scan },
      stop: () => adRemoval.stop(),
    };
  },
};
