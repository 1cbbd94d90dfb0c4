import path from 'node:path';
import { repoRoot } from '../core/paths.js';
import { systemTimeZone } from '../core/time-zone.js';
import { SSDP_MULTICAST_ADDRESS, SSDP_PORT, type SsdpTarget } from './box/ssdp.js';
import { appFoldersOf } from './sync/media-root.js';
import { GDM_MULTICAST_ADDRESS, GDM_PORT, type GdmTarget } from './mediaserver/gdm.js';
import { BROADCAST_ADDRESS, EMBY_DISCOVERY_PORT, type EmbyDiscoveryTarget } from './mediaserver/emby-discovery.js';
import { settingSeedsFrom } from './settings.js';

export interface RecordingConfig {
  /** HTTP port (`PORT`, default 8124; 0 picks a free one). */
  port: number;
  /** Listen address (`RECORDINGS_HOST`, default 0.0.0.0: a LAN service). */
  host: string;
  /** The SQLite state file (`DB_PATH`, default `<DATA_DIR>/recordings/state.db`). */
  dbPath: string;
  /** Folder of user configuration such as `detector.ini` (the state file's folder). */
  configDir: string;
  /** The bundled detector configuration used when the user has none. */
  bundledDetectorIni: string;
  /** `CSRF_SECRET`; unset: a random secret generated once and kept in `configDir/csrf-secret`. */
  csrfSecret: string | undefined;
  /** `NODE_ENV=production` (named in the start-up errors about the CSRF secret). */
  production: boolean;
  /** IANA time zone (`TZ`), exposed as `tz`, used by the scheduler. */
  tz: string;
  /** Environment seeds of settings: every variable a setting names (`MEDIA_ROOT`, `MQTT_URL`, `METRICS_ENABLED`, `ALLOWED_HOSTS`, …; settings.ts). */
  env: Record<string, string | undefined>;
  /** Where SSDP M-SEARCH goes: the multicast group on `SSDP_INTERFACE` in production. */
  ssdp: SsdpTarget;
  /** Where the media-server (GDM) search goes: its multicast group on `SSDP_INTERFACE` in production. */
  gdm: GdmTarget;
  /** Where Jellyfin's and Emby's discovery goes: a broadcast to UDP 7359 from `SSDP_INTERFACE` in production. */
  embyDiscovery: EmbyDiscoveryTarget;
  /**
   * The app's own folders a media root must keep clear of (its data folder; the service adds the
   * state file's and configuration folders and the install folder).
   */
  appFolders?: string[];
  /** Folder of the built web UI (`dist/renderer` by default); the recordings pages are served at `/`. */
  staticDir?: string;
}

export const DEFAULT_PORT = 8124;

/**
 * The app's own folders a media root must keep clear of: its install folder, its data folder, the
 * folders of its state file and configuration (detector.ini, csrf-secret) and of its built pages.
 */
export function ownFolders(config: Pick<RecordingConfig, 'appFolders' | 'configDir' | 'dbPath' | 'staticDir'>): string[] {
  return appFoldersOf([...(config.appFolders ?? []), config.configDir, path.dirname(config.dbPath), ...(config.staticDir ? [config.staticDir] : [])]);
}

/** The production configuration from the environment; `dataDir` is the app's data folder. */
export function recordingConfigFromEnv(env: NodeJS.ProcessEnv, dataDir: string): RecordingConfig {
  const dbPath = env.DB_PATH ? path.resolve(env.DB_PATH) : path.join(dataDir, 'recordings', 'state.db');
  const port = env.PORT !== undefined && /^\d+$/.test(env.PORT) ? Number(env.PORT) : DEFAULT_PORT;
  const iface = env.SSDP_INTERFACE?.trim();
  return {
    port,
    host: env.RECORDINGS_HOST?.trim() || '0.0.0.0',
    dbPath,
    configDir: path.dirname(dbPath),
    bundledDetectorIni: path.join(repoRoot, 'assets', 'detector.ini'),
    csrfSecret: env.CSRF_SECRET || undefined,
    production: env.NODE_ENV === 'production',
    tz: systemTimeZone(env),
    env: settingSeedsFrom(env),
    ssdp: {
      bindAddress: iface || '0.0.0.0',
      address: SSDP_MULTICAST_ADDRESS,
      port: SSDP_PORT,
      multicastInterface: iface || undefined,
      windowMs: 3000,
    },
    gdm: { bindAddress: iface || '0.0.0.0', address: GDM_MULTICAST_ADDRESS, port: GDM_PORT, multicastInterface: iface || undefined, windowMs: 3000 },
    embyDiscovery: { bindAddress: iface || '0.0.0.0', address: BROADCAST_ADDRESS, port: EMBY_DISCOVERY_PORT, windowMs: 3000 },
    staticDir: env.RECORDINGS_UI_DIR || undefined,
    appFolders: [path.resolve(dataDir)],
  };
}
