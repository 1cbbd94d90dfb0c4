import type { RecordingFeatureModule } from '../features/feature.js';
import { createBoxDeleter } from './box-delete.js';
import { testCloudAccount } from './cloud-test.js';
import { cloudSettings } from './settings.js';
import type { CloudTimings } from './cloud-client.js';
import type { CloudSettings } from './box-delete.js';

/**
 * What the cloud delete reads besides its context: its test seam (shorter waits), and two settings
 * of other features that decide whether the box copy may go (named here, not imported).
 */
interface CloudNeeds {
  deps: { cloudTimings?: Partial<CloudTimings> };
  settings: CloudSettings;
}


/**
 * Delete from the box through the vendor cloud (after the refresh step, and the delete button), and
 * the account test. The cloud is an internet service: a home address only when the owner set it.
 */
export const cloudFeature: RecordingFeatureModule<typeof cloudSettings, CloudNeeds> = {
  name: 'cloud',
  settings: cloudSettings,
  secretDestinations: { cloud_activation_code: ['cloud_api_url', 'cloud_ws_url'], cloud_pin: ['cloud_api_url', 'cloud_ws_url'] },
  create(ctx) {
    const { settings, outbound } = ctx;
    const cloudFetch = outbound.fetcher(() => ({ purpose: 'internet', configured: [settings.get().cloud_api_url] }));
    const checkChannel = (url: URL) => outbound.check({ purpose: 'internet', configured: [settings.get().cloud_ws_url] }, url);
    const timings = ctx.deps.cloudTimings;
    const boxDeleter = createBoxDeleter({ settings, recordings: ctx.recordings, guard: ctx.guard, fetch: cloudFetch, checkChannel, clock: ctx.clock, logger: ctx.logger, timings });
    return {
      hooks: { afterRefresh: boxDeleter.afterRefresh },
      seams: {
        cloudTest: () => testCloudAccount({ settings, fetch: cloudFetch, logger: ctx.logger, timings, signal: ctx.stopSignal }),
        deleteFromBox: (row, signal) => boxDeleter.deleteManually(row, signal),
      },
    };
  },
};
