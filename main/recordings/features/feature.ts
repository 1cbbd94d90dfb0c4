import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import type { Db } from '../../core/sqlite.js';
import type { FetchLike } from '../box/description.js';
import type { RecordingConfig } from '../config.js';
import type { ProgressRegistry } from '../progress.js';
import type { IntegrationSeams } from '../routes/context.js';
import type { RecordingDeps } from '../service.js';
import type { RecordingSettings } from '../settings.js';
import type { RecordingsStore } from '../store/recordings-store.js';
import type { ShowsStore } from '../store/shows-store.js';
import type { SyncHooks } from '../sync/engine.js';
import type { FlightGuard } from '../sync/single-flight.js';

/** How a secret is shown on read; writing this value back leaves the stored secret unchanged. */
export const SECRET_MASK = '••••••••';

/**
 * One recording-sync setting: its validator, default, environment seed, secrecy, when it applies and
 * its hint. The description is written for a householder: the settings page shows it as is.
 */
export interface SettingDef {
  schema: z.ZodType;
  default: unknown;
  /** Environment variable consulted when the setting is not stored. */
  env?: string;
  secret?: boolean;
  /** `live`: takes effect on save; `restart`: read at start. */
  applies: 'live' | 'restart';
  /** The setting's name in words, as refusals and the pages say it ("Folder for TV shows"). */
  label: string;
  /** One or two plain sentences for the settings page. */
  description: string;
}

/** What an integration gets from the service when it starts. Everything is passed in. */
export interface RecordingFeatureContext {
  config: RecordingConfig;
  deps: RecordingDeps;
  db: Db;
  recordings: RecordingsStore;
  shows: ShowsStore;
  settings: RecordingSettings;
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
 * runs anything, its factory. The service's list of these (features/index.ts) is where one is added.
 */
export interface RecordingFeatureModule<D extends Record<string, SettingDef> = Record<string, SettingDef>> {
  readonly name: string;
  /** Settings this feature owns, in the order the settings API lists them. */
  readonly settings?: D;
  /** Each secret of this feature and the settings naming where it is sent. */
  readonly secretDestinations?: Partial<Record<keyof D, readonly string[]>>;
  create?(ctx: RecordingFeatureContext): RecordingFeature;
}
