import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import type { Db } from '../../core/sqlite.js';
import type { FetchLike } from '../box/bounded-fetch.js';
import type { recordingCoreSettings } from '../core-settings.js';
import type { ProgressRegistry } from '../progress.js';
import type { RecordingsStore } from '../store/recordings-store.js';
import type { ShowsStore } from '../store/shows-store.js';
import type { SyncHooks } from '../sync/hooks.js';
import type { FlightGuard } from '../sync/single-flight.js';
import type { IntegrationSeams } from '../routes/seams.js';
import type { FeatureSettings, SecretKeysOf, SettingDef, ValuesOf } from './setting-def.js';

export { SECRET_MASK, type SettingDef } from './setting-def.js';

/** The core settings every feature may read (the media root, the schedule, the box, downloads). */
export type CoreSettingDefs = typeof recordingCoreSettings;

/**
 * What a feature gets from the service when it starts. Everything is passed in; its settings are
 * its own section `D` and the core, nothing of another feature. What a feature needs beyond this
 * (parts of the configuration, test seams) it names in its module's `Extra`.
 */
export interface RecordingFeatureContext<D = Record<string, SettingDef>> {
  db: Db;
  recordings: RecordingsStore;
  shows: ShowsStore;
  settings: FeatureSettings<ValuesOf<D & CoreSettingDefs>, SecretKeysOf<D>>;
  progress: ProgressRegistry;
  guard: FlightGuard;
  clock: Clock;
  logger: Logger;
  /** The outbound gate (purpose per request) and its LAN-device fetcher. */
  outbound: Outbound;
  lanFetch: FetchLike;
  /** Aborted when the service stops. */
  stopSignal: AbortSignal;
}

/** The settings a feature with section `D` is handed (its own keys and the core's). */
export type FeatureSettingsOf<D> = RecordingFeatureContext<D>['settings'];

/**
 * A running integration: the sync steps it adds (composed in list order), the route seams it
 * fills, and what it releases on stop. Every member is optional.
 */
export interface RecordingFeature {
  hooks?: Pick<SyncHooks, 'afterDone' | 'mediaServer' | 'afterRefresh' | 'housekeeping'>;
  seams?: Partial<IntegrationSeams>;
  stop?(): void | Promise<void>;
}

/**
 * What a recording-sync folder hands the service: its settings (validator, default, env seed,
 * secrecy, `applies`, label, hint), which settings each of its secrets is bound to, and, when it
 * runs anything, its factory. `Extra` is what its factory needs besides the context (the service's
 * configuration and test seams it reads, by name). The service's list of these (features/index.ts)
 * is where one is added.
 */
export interface RecordingFeatureModule<D extends Record<string, SettingDef> = Record<string, SettingDef>, Extra = object> {
  readonly name: string;
  /** Settings this feature owns, in the order the settings API lists them. */
  readonly settings?: D;
  /** Each secret of this feature and the settings naming where it is sent. */
  readonly secretDestinations?: Partial<Record<keyof D, readonly string[]>>;
  create?(ctx: RecordingFeatureContext<D> & Extra): RecordingFeature;
}
