/** The recording sync service: what the composition roots (headless, Electron, demo) use. The demo's own
 * start (simulated box, cloud and media server) is `./demo.js`, kept out of here so `npm start` never loads them. */
export { createRecordingService, type RecordingDeps, type RecordingService } from './service.js';
export { recordingConfigFromEnv, DEFAULT_PORT, type RecordingConfig } from './config.js';
export { installUnhandledRejectionLogging, unhandledRejectionLogger } from '../core/process-guards.js';
export type { SyncHooks } from './sync/engine.js';
export type { FlightGuard } from './sync/single-flight.js';
