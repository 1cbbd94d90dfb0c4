import type { RecordingFeatureModule } from '../features/feature.js';
import { createBoxDeleter } from './box-delete.js';
import { testCloudAccount } from './cloud-test.js';
import { cloudSettings } from './settings.js';
import type { CloudTimings } from './cloud-client.js';
import { registerCloudRoutes } from './routes.js';

/** What the cloud delete reads besides its context: its test seams (shorter waits, a replaced account test). */
interface CloudNeeds {
  deps: { cloudTimings?: Partial<CloudTimings>; cloudTest?: () => Promise<unknown> };
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
    const boxDeleter = createBoxDeleter({ settings, steps: ctx.afterDownloadSteps, recordings: ctx.recordings, guard: ctx.guard, fetch: cloudFetch, checkChannel, clock: ctx.clock, logger: ctx.logger, timings });
    const test = ctx.deps.cloudTest ?? (() => testCloudAccount({ settings, fetch: cloudFetch, logger: ctx.logger, timings, signal: ctx.stopSignal }));
    return {
      hooks: { afterRefresh: boxDeleter.afterRefresh },
      routes: (app) => registerCloudRoutes(app, { recordings: ctx.recordings, stopSignal: ctx.stopSignal, test, deleteFromBox: (row, signal) => boxDeleter.deleteManually(row, signal) }),
      capabilities: ['cloud_test', 'delete_from_box'],
    };
  },
};
