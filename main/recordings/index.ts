/** The recording sync service: what the composition roots (headless, Electron, demo) use. */
export { createRecordingService, type RecordingDeps, type RecordingService } from './service.js';
export { recordingConfigFromEnv, DEFAULT_PORT, type RecordingConfig } from './config.js';
export { installUnhandledRejectionLogging, unhandledRejectionLogger } from '../core/process-guards.js';
export { startRecordingsDemo } from './demo.js';
export type { SyncHooks } from './sync/engine.js';
export type { IntegrationSeams } from './routes/context.js';
export type { FlightGuard } from './sync/single-flight.js';
