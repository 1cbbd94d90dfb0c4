import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { realElapsed, systemClock, type Clock } from '../core/clock.js';
import { splitHostList } from '../core/host-check.js';
import { createHttpServer, listen } from '../core/http.js';
import { explainListenError, type PortOwner } from '../core/startup.js';
import { startFeatures } from '../core/feature.js';
import { createDisposer, yieldToIo } from '../core/lifecycle.js';
import type { AdRemovalDeps } from './adcut/ad-removal.js';
import type { AdTools } from './adcut/tools.js';
import { composeHooks } from './features/compose.js';
import { recordingFeatures } from './features/index.js';
import type { SyncParts } from './features/feature.js';
import type { Logger } from '../core/logger.js';
import { createOutbound, type Resolve } from '../core/outbound.js';
import { openDatabase, type Db } from '../core/sqlite.js';
import type { FetchLike } from './box/description.js';
import { ownFolders, type RecordingConfig } from './config.js';
import { resolveCsrfSecret } from './csrf.js';
import { registerHttpSecurity, registerRecordingHeaders } from './http-security.js';
import { registerOwnerGate, type OwnerGate } from '../core/owner-gate.js';
import { isOwnerRequest } from '../core/owner-only.js';
import { createProgressRegistry, type ProgressRegistry } from './progress.js';
import { createProgressFeed } from './progress-feed.js';
import { registerClockRoute } from '../core/clock-route.js';
import { registerBoxRoutes } from './routes/box-routes.js';
import { registerImportRoutes } from './routes/import-routes.js';
import { registerMaintenanceRoutes } from './routes/maintenance-routes.js';
import type { RouteContext } from './routes/context.js';
import { registerRecordingRoutes } from './routes/recordings-routes.js';
import { registerSettingsRoutes } from './routes/settings-routes.js';
import { registerShowRoutes } from './routes/shows-routes.js';
import { registerSyncRoutes } from './routes/sync-routes.js';
import { createSyncScheduler, type SyncScheduler } from './scheduler.js';
import { createRecordingSettings, type RecordingSettings } from './settings.js';
import { recordingMigrations } from './store/migrations.js';
import { createRecordingsStore, type RecordingRow, type RecordingsStore } from './store/recordings-store.js';
import { createShowsStore } from './store/shows-store.js';
import { createSyncRunsStore } from './store/sync-runs-store.js';
import { createSyncEngine, type SyncEngine, type SyncHooks } from './sync/engine.js';
import { createThreadDownloader, inProcessDownloader, type Downloader } from './sync/download-thread.js';
import type { MediaGet } from './sync/media-get.js';
import type { FreeSpaceProbe } from './sync/disk-space.js';
import { syncHealth } from './sync/health.js';
import { mediaRootProblem } from './sync/media-root.js';
import { createFlightGuard, type FlightGuard } from './sync/single-flight.js';
import type { CloudTimings } from './cloud/cloud-client.js';
import { registerRecordingsUi } from './web-ui.js';

export interface RecordingDeps {
  logger: Logger;
  /**
   * The time of day the service shows and schedules by (runs, "last sync", the schedule); default
   * the system clock. Durations (stall timers, rates, live progress) run on `realElapsed(clock)`, so
   * a fast demo clock changes what the pages say, never how long a download may stall.
   */
  clock?: Clock;
  /**
   * What the sync schedule (`sync_cron`) waits on; default `clock`. Tests give a manual clock, so a
   * scheduled sync fires when the test moves it, never because the test ran across :00 or :30.
   */
  scheduleClock?: Clock;
  /**
   * HTTP transport for the box, the media server and the cloud, used after the outbound gate's
   * check (default: the gate's own client, connected to the checked address).
   */
  fetch?: FetchLike;
  /** Host-name resolution for the outbound gate (default: the system resolver). */
  resolve?: Resolve;
  /**
   * Streams media bodies from the box. Default: the socket client, on a download thread of its own;
   * an injected client downloads in this thread, timed in real elapsed time of the injected clock.
   */
  mediaGet?: MediaGet;
  /** Replace the media-server refresh or add post-download steps (tests); the service wires its own. */
  hooks?: SyncHooks;
  /** Replaces the re-scan button's ad scan (tests); ad removal's own by default. */
  adScan?: (row: RecordingRow, signal: AbortSignal) => Promise<void>;
  /** Replaces the cloud account test (tests); the cloud feature's own by default. */
  cloudTest?: () => Promise<unknown>;
  /** Free bytes on a folder's filesystem (statfs by default). */
  freeSpace?: FreeSpaceProbe;
  /** comskip, ffmpeg, ffprobe, nice and spawn for ad removal (names on PATH by default). */
  adTools?: AdTools;
  /** Test seams of ad removal (a short scan timeout, a pause inside the swap). */
  adRemoval?: Pick<AdRemovalDeps, 'scanTimeout' | 'betweenRenames'>;
  /** Cloud-delete waits (the spec's 2 pings x 10 s by default; tests shorten them). */
  cloudTimings?: Partial<CloudTimings>;
  /**
   * The owner's passcode gate (the energy bridge's, from the composition root): while a passcode
   * is set, every state-changing route needs the shared session. Without it the LAN is trusted.
   */
  owner?: OwnerGate;
  /** How long a request may take to arrive before 408 (default 30 s, core/http.ts; tests shorten it). */
  requestTimeoutMs?: number;
  /** The longest an outbound request may wait for an answer (default: each client's own; tests shorten it for a silent host). */
  outboundTimeoutMs?: number;
}

export interface RecordingService {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** `http://host:port` once started. */
  readonly url: string;
  readonly port: number;
  /** The fastify instance (tests use `inject`). */
  readonly app: FastifyInstance;
  /** Shared with future pipelines: one pipeline per recording at a time. */
  readonly guard: FlightGuard;
  readonly progress: ProgressRegistry;
  readonly engine: SyncEngine;
  readonly settings: RecordingSettings;
  /** The recordings table: later pipelines (ad removal, cloud delete) write rows through it. */
  readonly recordings: RecordingsStore;
  readonly scheduler: SyncScheduler;
}

/**
 * The recording sync service. Creating it does nothing; `start()` applies pending migrations, then
 * serves; `stop()` aborts a running sync (partial files stay for resume) and releases the port, the
 * cron task and the state file.
 */
export function createRecordingService(config: RecordingConfig, deps: RecordingDeps): RecordingService {
  const clock = deps.clock ?? systemClock;
  // Every outbound connection goes through the gate: the box and the media server are LAN devices,
  // the cloud is an internet service (a home address only when the owner set it in that setting).
  const outbound = createOutbound({ resolve: deps.resolve, transport: deps.fetch, timeoutMs: deps.outboundTimeoutMs });
  const fetchFn = outbound.fetcher({ purpose: 'lan-device' });
  const logger = deps.logger.child({ service: 'recordings' });
  const guard = createFlightGuard();
  const elapsed = realElapsed(clock);
  const progress = createProgressRegistry(elapsed);
  const disposer = createDisposer();
  let state: { app: FastifyInstance; engine: SyncEngine; settings: RecordingSettings; scheduler: SyncScheduler; db: Db; recordings: RecordingsStore } | null = null;
  let port = 0;

  const need = () => {
    if (!state) throw new Error('the recording service is not started');
    return state;
  };

  return {
    async start() {
      if (state) return;
      const csrf = resolveCsrfSecret(config.csrfSecret, config.production, config.configDir);
      if (csrf.source === 'generated') logger.info({ dir: config.configDir }, 'CSRF_SECRET is not set: generated a random secret and stored it in the data folder');
      const csrfSecret = csrf.secret;
      const db = openDatabase(config.dbPath, recordingMigrations);
      disposer.add(() => db.close());
      try {
        // An interrupted scan leaves no stuck row.
        db.prepare(`UPDATE recordings SET ad_status = 'unscanned' WHERE ad_status = 'scanning'`).run();
        const recordings = createRecordingsStore(db);
        recordings.listJson(); // build the list once before serving: the first poll is as fast as the rest
        const shows = createShowsStore(db);
        const runs = createSyncRunsStore(db);
        const interrupted = runs.closeInterrupted(clock.now());
        if (interrupted) logger.warn({ interrupted }, 'closed sync runs left running by an earlier process');
        await yieldToIo();
        // The media root must keep clear of these (refused when saved, and no sync writes into them).
        const appFolders = ownFolders(config);
        const settings = createRecordingSettings(db, {
          env: config.env,
          tz: config.tz,
          configDir: config.configDir,
          bundledDetectorIni: config.bundledDetectorIni,
        });
        const rootProblem = mediaRootProblem(settings.get().media_root, { appFolders });
        if (rootProblem) logger.error({ media_root: settings.get().media_root, problem: rootProblem }, 'the media root cannot be used: no sync runs until media_root is set to a folder meant for recordings');
        const stopController = new AbortController();
        disposer.add(() => stopController.abort());
        // The integrations (ad removal, media server, cloud delete), one per entry of the feature
        // list, in its order; test deps override their hooks (and, through the features' own
        // context, the ad scan and the cloud test).
        const isOwner = (req: FastifyRequest) => isOwnerRequest(req, (r) => deps.owner?.hasSession(r) ?? false);
        // What the cloud delete waits for, read from the other features' settings here (a feature sees only its own).
        const afterDownloadSteps = () => {
          const s = settings.get();
          return { adRemoval: s.ad_removal_enabled, mediaServer: s.media_server_url !== '' };
        };
        // The engine, schedule and run history, made after the features (the engine takes their
        // hooks): features reach them from start() and routes() on.
        let made: { engine: SyncEngine; scheduler: SyncScheduler } | null = null;
        const sync: SyncParts = {
          get engine() {
            if (!made) throw new Error('the sync engine is made after the features');
            return made.engine;
          },
          get scheduler() {
            if (!made) throw new Error('the scheduler is made after the features');
            return made.scheduler;
          },
          runs,
        };
        const features = recordingFeatures.flatMap((f) =>
          f.create ? [f.create({ config, deps, db, recordings, shows, settings, progress, guard, clock, logger, outbound, lanFetch: fetchFn, stopSignal: stopController.signal, isOwner, sync, afterDownloadSteps })] : [],
        );
        // The features start last (below) and stop here in the order: after the schedule, the app
        // and the engine, before the database closes (an aborted sync's last steps still reach them).
        let stopFeatures: () => Promise<void> = async () => undefined;
        disposer.add(() => stopFeatures());
        const hooks = composeHooks(features, recordings, deps.hooks);
        let download: Downloader;
        if (deps.mediaGet) download = inProcessDownloader(deps.mediaGet, elapsed);
        else {
          const thread = createThreadDownloader(logger);
          disposer.add(() => thread.close());
          download = thread.download;
        }
        const engine = createSyncEngine({ recordings, shows, runs, settings, progress, guard, fetch: fetchFn, download, clock, logger, ssdp: config.ssdp, hooks, freeSpace: deps.freeSpace, appFolders });
        disposer.add(() => engine.stop());
        const scheduler = createSyncScheduler({ settings, engine, logger, timezone: config.tz, clock: deps.scheduleClock ?? clock });
        made = { engine, scheduler };

        await yieldToIo();
        const app = createHttpServer({ logger, appName: 'Recording sync', bodyLimit: 64 * 1024, bodyTooLargeStatus: 413, hostCheck: { allowedHosts: () => splitHostList(settings.get().allowed_hosts) }, headers: registerRecordingHeaders, requestTimeoutMs: deps.requestTimeoutMs });
        disposer.add(() => app.close());
        await registerHttpSecurity(app, csrfSecret);
        registerOwnerGate(app, deps.owner);
        const ctx: RouteContext = {
          db, recordings, shows, runs, settings, progress, guard, engine, scheduler,
          fetch: fetchFn, ssdp: config.ssdp, clock, logger, stopSignal: stopController.signal, appFolders, isOwner,
          capabilities: new Set(features.flatMap((f) => f.capabilities ?? [])),
        };
        // 200 either way (the service is up); `degraded` names what needs the user: a full disk for
        // the media, or a data folder (state file, settings) that cannot be written.
        app.get('/healthz', async () => {
          db.prepare('SELECT 1').get();
          return syncHealth({ runs, settings, dataFolders: [path.dirname(config.dbPath), config.configDir] });
        });
        // The service's time (the pages measure ages and next runs from it; the demo's runs faster).
        registerClockRoute(app, clock, () => config.tz);
        registerSettingsRoutes(app, ctx);
        registerShowRoutes(app, ctx);
        registerRecordingRoutes(app, ctx);
        registerSyncRoutes(app, ctx);
        registerBoxRoutes(app, ctx);
        registerImportRoutes(app, ctx);
        registerMaintenanceRoutes(app, ctx, { freeSpace: deps.freeSpace });
        // Live progress for the pages as events (the Overview reads the list only when a row changes).
        const progressFeed = createProgressFeed({ progress, version: () => recordings.version(), running: () => engine.current()?.run.id ?? null, clock: elapsed, logger });
        disposer.add(() => progressFeed.close());
        progressFeed.routes(app);
        // Each feature's own routes (ad scan; cloud test and delete from the box; the media server's discovery, status and token; /metrics).
        for (const f of features) f.routes?.(app);
        await registerRecordingsUi(app, config.staticDir);

        await yieldToIo();
        const owner: PortOwner = { service: 'recording sync', variable: 'PORT', hostVariable: 'RECORDINGS_HOST' };
        port = await listen(app, config.port, config.host, owner).catch((err: unknown) => {
          throw explainListenError(err, config.port, config.host, owner);
        });
        await yieldToIo();
        scheduler.start();
        disposer.add(() => scheduler.stop());
        // The features' start (MQTT), in list order once the schedule runs; one stop for them all
        // (each in reverse order, a failing one logged), run where it was registered above.
        stopFeatures = await startFeatures(features, (err) => logger.error({ err }, 'a recording-sync feature failed to stop'));
        state = { app, engine, settings, scheduler, db, recordings };
        logger.info({ port, db: config.dbPath }, 'recording sync service started');
      } catch (err) {
        await disposer.run().catch(() => undefined);
        throw err;
      }
    },
    async stop() {
      await disposer.run();
      state = null;
    },
    get url() {
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      return `http://${host}:${port}`;
    },
    get port() {
      return port;
    },
    get app() {
      return need().app;
    },
    guard,
    progress,
    get engine() {
      return need().engine;
    },
    get settings() {
      return need().settings;
    },
    get recordings() {
      return need().recordings;
    },
    get scheduler() {
      return need().scheduler;
    },
  };
}
