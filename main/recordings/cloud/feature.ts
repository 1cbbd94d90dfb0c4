import { z } from 'zod';
import type { RecordingFeatureModule, SettingDef } from '../features/feature.js';
import { httpUrlOrEmpty } from '../features/validators.js';
import { createBoxDeleter } from './box-delete.js';
import { testCloudAccount } from './cloud-test.js';

const wsUrlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^wss?$/ })]);
const secret = z.string().max(512);

export const cloudSettings = {
  cloud_api_url: {
    schema: httpUrlOrEmpty,
    default: '',
    applies: 'live',
    label: 'Cloud address',
    description: "The box maker's online service, used to delete recordings from the box once they are safely downloaded. Leave blank to keep them on the box.",
  },
  cloud_ws_url: {
    schema: wsUrlOrEmpty,
    default: '',
    applies: 'live',
    label: 'Cloud live channel',
    description: 'The address of the online service that passes a delete on to the box.',
  },
  cloud_activation_code: {
    schema: secret,
    default: '',
    secret: true,
    applies: 'live',
    label: 'Cloud activation code',
    description: 'The activation code of your account with the box maker. Only ever sent to the cloud addresses above; stays hidden once saved.',
  },
  cloud_pin: {
    schema: secret,
    default: '',
    secret: true,
    applies: 'live',
    label: 'Cloud PIN',
    description: 'The PIN of that account. Only ever sent to the cloud addresses above; stays hidden once saved.',
  },
} as const satisfies Record<string, SettingDef>;

/**
 * Delete from the box through the vendor cloud (after the refresh step, and the delete button), and
 * the account test. The cloud is an internet service: a home address only when the owner set it.
 */
export const cloudFeature: RecordingFeatureModule<typeof cloudSettings> = {
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
