import { SECRET_MASK, settingDefs, type SettingKey } from '../settings.js';
import { mapMediaPath } from './media-path.js';

/** A fetcharr setting with an equal here: which key it becomes and the value (secrets masked for display). */
export interface CarriedSetting {
  from: string;
  to: SettingKey;
  value: unknown;
}

/** Something fetcharr knew that is not brought over, and why (shown in the preview). */
export interface NotCarried {
  what: string;
  reason: string;
}

export interface SettingsMapping {
  /** The settings patch to store (clear values). */
  patch: Partial<Record<SettingKey, unknown>>;
  carried: CarriedSetting[];
  notCarried: NotCarried[];
}

/** fetcharr's default box port when `fetch_port` is blank (its `DEFAULT_FETCH_PORT`). */
export const FETCHARR_DEFAULT_BOX_PORT = 49152;

const str = (v: string | null | undefined) => (v ?? '').trim();

/**
 * Maps fetcharr's `settings` rows (text values) onto ours. The media root is the NEW one (paths
 * are mapped, see media-path.ts); every other value is validated by our own schema and carried only
 * when it passes, otherwise it is listed with the reason.
 */
export function mapFetcharrSettings(settings: ReadonlyMap<string, string | null>, roots: { from: string; to: string }): SettingsMapping {
  const patch: SettingsMapping['patch'] = {};
  const carried: CarriedSetting[] = [];
  const notCarried: NotCarried[] = [];
  const seen = new Set<string>();

  const carry = (from: string, to: SettingKey, value: unknown) => {
    const def = settingDefs[to] as { schema: { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ message: string }> } } }; secret?: boolean };
    const ok = def.schema.safeParse(value);
    if (!ok.success) {
      notCarried.push({ what: from, reason: `its value does not fit ${to} here (${ok.error?.issues[0]?.message ?? 'invalid'})` });
      return;
    }
    patch[to] = value;
    carried.push({ from, to, value: def.secret && value ? SECRET_MASK : value });
  };
  const take = (key: string) => {
    seen.add(key);
    return settings.has(key) ? str(settings.get(key)) : undefined;
  };

  // The box: fetch_ip with fetch_port (blank port: fetcharr's default) → box_address host:port.
  const ip = take('fetch_ip');
  const port = take('fetch_port');
  if (ip) {
    const p = port && /^\d{1,5}$/.test(port) ? Number(port) : FETCHARR_DEFAULT_BOX_PORT;
    carry('fetch_ip, fetch_port', 'box_address', `${ip.includes(':') ? `[${ip}]` : ip}:${p}`);
  } else if (ip !== undefined || port) {
    notCarried.push({ what: 'fetch_ip, fetch_port', reason: 'fetcharr had no box address: the box is found by searching the network (or set box_address)' });
  }

  const mediaRoot = take('media_root');
  carried.push({ from: 'media_root', to: 'media_root', value: roots.to });
  patch.media_root = roots.to;
  if (mediaRoot && mediaRoot !== roots.from && !mapMediaPath(mediaRoot, roots.from, roots.to)) {
    notCarried.push({ what: `media_root (${mediaRoot})`, reason: `fetcharr's media root is not under the old media root ${roots.from} given for the import: check "media root then"` });
  }

  const cron = take('sync_cron');
  if (cron) {
    carry('sync_cron', 'sync_cron', cron);
    notCarried.push({ what: "the schedule's time zone", reason: "fetcharr took it from its container's TZ, not from its state: sync_cron now runs in this service's time zone (TZ)" });
  }

  const plexUrl = take('plex_url');
  if (plexUrl) carry('plex_url', 'media_server_url', plexUrl.replace(/\/+$/, ''));
  const token = take('plex_token');
  if (token) carry('plex_token', 'media_server_token', token);
  const section = take('plex_tv_section_id');
  if (section) carry('plex_tv_section_id', 'media_server_section_id', section);
  const prefs = take('plex_prefs_path');
  if (prefs) {
    const mapped = mapMediaPath(prefs, roots.from, roots.to);
    if (mapped) carry('plex_prefs_path', 'media_server_prefs_path', mapped);
    else notCarried.push({ what: `plex_prefs_path (${prefs})`, reason: "a path inside fetcharr's container: set media_server_prefs_path to Plex's Preferences.xml on this computer" });
  }

  const code = take('fetch_cloud_activation_code');
  if (code) carry('fetch_cloud_activation_code', 'cloud_activation_code', code);
  const pin = take('fetch_cloud_pin');
  if (pin) carry('fetch_cloud_pin', 'cloud_pin', pin);
  const terminal = take('fetch_cloud_terminal_id');
  if (terminal) notCarried.push({ what: 'fetch_cloud_terminal_id', reason: 'not needed: the box is found again from the account at each sign-in' });

  const adEnabled = take('ad_removal_enabled');
  if (adEnabled) carry('ad_removal_enabled', 'ad_removal_enabled', adEnabled === 'true');
  const retention = take('ad_original_retention_days');
  if (retention) {
    if (/^\d+$/.test(retention)) carry('ad_original_retention_days', 'ad_original_retention_days', Number(retention));
    else notCarried.push({ what: `ad_original_retention_days (${retention})`, reason: 'not a whole number of days' });
  }

  // Deleting from the box only after the media server refreshed is always on here.
  const guard = take('delete_after_plex_refresh_only');
  if (guard === 'false') {
    notCarried.push({
      what: 'delete_after_plex_refresh_only = false',
      reason: 'this app always waits for a successful media-server refresh before deleting from the box (when a media server is set)',
    });
  }

  for (const key of settings.keys()) {
    if (seen.has(key)) continue;
    notCarried.push({ what: key, reason: 'a fetcharr setting this app has no equal for' });
  }
  return { patch, carried, notCarried };
}
