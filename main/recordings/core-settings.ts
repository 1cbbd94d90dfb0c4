import { syncSettings } from './sync/settings.js';

/**
 * The recording sync's core settings: what the whole sync is about and every feature may read (the
 * media root and its folders, the schedule, the box, how downloads run). They are not a feature;
 * the settings API lists them first, under the group name the settings page knows (`sync`), then
 * the features' settings in list order (features/index.ts), the same order as before.
 */
export const recordingCoreGroups = [{ name: 'sync', settings: syncSettings }] as const;

/** The core settings' definitions (what every feature's settings type includes). */
export const recordingCoreSettings = syncSettings;
