import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { FetchLike } from '../box/description.js';
import type { SsdpTarget } from '../box/ssdp.js';
import type { ProgressRegistry } from '../progress.js';
import type { SyncScheduler } from '../scheduler.js';
import type { RecordingSettings } from '../settings.js';
import type { RecordingsStore } from '../store/recordings-store.js';
import type { ShowsStore } from '../store/shows-store.js';
import type { SyncRunsStore } from '../store/sync-runs-store.js';
import type { SyncEngine } from '../sync/engine.js';
import type { FlightGuard } from '../sync/single-flight.js';
import type { Db } from '../../core/sqlite.js';

export { requireNoBody } from '../features/route-input.js';

/** What the route modules share. */
export interface RouteContext {
  db: Db;
  recordings: RecordingsStore;
  shows: ShowsStore;
  runs: SyncRunsStore;
  settings: RecordingSettings;
  progress: ProgressRegistry;
  guard: FlightGuard;
  engine: SyncEngine;
  scheduler: SyncScheduler;
  fetch: FetchLike;
  ssdp: SsdpTarget;
  clock: Clock;
  logger: Logger;
  /** What the features' own routes offer (`ad_scan`, `cloud_test`, …), reported by `GET /api/settings`. */
  capabilities: ReadonlySet<string>;
  /** Aborted when the service stops (background work started by routes listens to it). */
  stopSignal: AbortSignal;
  /** Whether the request is the owner's: from the PC itself or with a passcode session (core/owner-only.ts). */
  isOwner(req: FastifyRequest): boolean;
  /** The app's own folders (install, data, state file): a media root must keep clear of them. */
  appFolders: readonly string[];
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
