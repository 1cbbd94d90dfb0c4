import type { OwnerGate } from '../../core/owner-gate.js';
import type { RecordingFeatureModule } from '../features/feature.js';
import { adOutcomeCounter } from './ad-outcomes.js';
import { registerRecordingsMetrics } from './metrics.js';
import { createRecordingsMqtt, type MqttSettingsView } from './mqtt.js';
import { recordingsIntegrationDefs, recordingsIntegrationSecrets } from './settings.js';

/** What MQTT reads besides its context: the passcode gate (Sync now follows the route's rule), its data folder (device id), the settings' sources. */
interface IntegrationNeeds {
  deps: { owner?: OwnerGate };
  config: { configDir: string };
  settings: MqttSettingsView;
}

/**
 * MQTT and metrics, a feature like the others: their settings and the secret's binding, `GET
 * /metrics` as its own route, and the MQTT link started with the service (after the schedule, so
 * the first state names the next run) and stopped with it.
 */
export const recordingsIntegrationsFeature: RecordingFeatureModule<typeof recordingsIntegrationDefs, IntegrationNeeds> = {
  name: 'mqtt-and-metrics',
  settings: recordingsIntegrationDefs,
  secretDestinations: recordingsIntegrationSecrets,
  create(ctx) {
    const { settings, sync } = ctx;
    // Made at start: the engine and the schedule exist from then on (features/feature.ts, SyncParts).
    let mqtt: ReturnType<typeof createRecordingsMqtt> | null = null;
    return {
      routes: (app) => registerRecordingsMetrics(app, { db: ctx.db, engine: sync.engine, progress: ctx.progress, settings }),
      start() {
        mqtt = createRecordingsMqtt({
          settings, engine: sync.engine, runs: sync.runs, scheduler: sync.scheduler, progress: ctx.progress, adOutcomes: adOutcomeCounter(ctx.db), owner: ctx.deps.owner,
          outbound: ctx.outbound, clock: ctx.clock, logger: ctx.logger, dataDir: ctx.config.configDir,
        });
        mqtt.start();
      },
      async stop() {
        await mqtt?.stop();
        mqtt = null;
      },
    };
  },
};
