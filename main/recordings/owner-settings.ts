import { ownerOnlyError } from '../core/owner-only.js';
import { settingDefs, type RecordingSettings, type SettingKey, type SettingsView } from './settings.js';

/**
 * The recording settings that name a place on the PC or how the app listens (the media folder,
 * the media server's preferences file, the host names it answers to): changed only by the owner
 * (core/owner-only.ts).
 */
export const OWNER_ONLY_SETTINGS = ['media_root', 'media_server_prefs_path', 'allowed_hosts'] as const satisfies readonly SettingKey[];

/**
 * Throws 403 `owner_only` naming the first owner-only setting a guest's patch would change (a
 * value equal to the current one, as a page echoes it, is not a change; `null` is one when a
 * value is stored).
 */
export function refuseGuestPatch(settings: RecordingSettings, body: unknown, owner: boolean): void {
  if (owner || typeof body !== 'object' || body === null) return;
  const patch = body as Record<string, unknown>;
  const { settings: now, sources } = settings.view();
  for (const k of OWNER_ONLY_SETTINGS) {
    const v = patch[k];
    if (v === undefined) continue;
    if (v === null ? sources[k] === 'stored' : v !== now[k]) throw ownerOnlyError(k, settingDefs[k].label);
  }
}

/** `GET /api/settings` as another device sees it: no path of the PC's install or data folders. */
export function viewForGuest(view: SettingsView): Omit<SettingsView, 'detector_config'> & { detector_config: { source: SettingsView['detector_config']['source'] } } {
  return { ...view, detector_config: { source: view.detector_config.source } };
}
