import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { RunningFeature } from '../../core/feature.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import type { Db } from '../../core/sqlite.js';
import type { FetchLike } from '../box/bounded-fetch.js';
import type { recordingCoreSettings } from '../core-settings.js';
import type { ProgressRegistry } from '../progress.js';
import type { RecordingsStore } from '../store/recordings-store.js';
import type { ShowsStore } from '../store/shows-store.js';
import type { SyncRun, SyncRunsStore, SyncTrigger } from '../store/sync-runs-store.js';
import type { SyncHooks } from '../sync/hooks.js';
import type { FlightGuard } from '../sync/single-flight.js';
import type { FeatureSettings, SecretKeysOf, SettingDef, ValuesOf } from './setting-def.js';

export { SECRET_MASK, type SettingDef } from './setting-def.js';

/** The core settings every feature may read (the media root, the schedule, the box, downloads). */
export type CoreSettingDefs = typeof recordingCoreSettings;

/**
 * The running sync as a feature may use it: the engine, the schedule and the run history. The
 * service makes them after the features (the engine takes their hooks), so they are there from
 * the feature's `start()` and `routes()` on, not inside `create()`.
 */
export interface SyncParts {
  readonly engine: { current(): { run: SyncRun } | null; start(trigger: SyncTrigger): { run: SyncRun } };
  readonly scheduler: { status(): { next_run: string | null } };
  readonly runs: SyncRunsStore;
}

/**
 * Which after-download steps of other features are on: ad removal, and a media server set. The
 * service reads them from the composed settings (the cloud delete keeps a box copy until they are
 * done with it).
 */
export interface AfterDownloadSteps {
  adRemoval: boolean;
  mediaServer: boolean;
}

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
  /** The engine, schedule and run history (ready from start() and routes() on). */
  sync: SyncParts;
  /** Whether a request is the owner's (from the PC itself or with a passcode session). */
  isOwner(req: FastifyRequest): boolean;
  /** Which other after-download steps are on now. */
  afterDownloadSteps(): AfterDownloadSteps;
}

/** The settings a feature with section `D` is handed (its own keys and the core's). */
export type FeatureSettingsOf<D> = RecordingFeatureContext<D>['settings'];

/**
 * A running integration (the shared contract's RunningFeature: its own `routes(app)`, start and
 * stop), plus the sync steps it adds (composed in list order) and the capabilities its routes give
 * (`GET /api/settings` reports them so the pages offer an action only when it is there). Every
 * member is optional.
 */
export interface RecordingFeature extends RunningFeature {
  hooks?: Pick<SyncHooks, 'afterDone' | 'mediaServer' | 'afterRefresh' | 'housekeeping'>;
  capabilities?: readonly string[];
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
