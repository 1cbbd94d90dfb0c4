import path from 'node:path';
import type { Clock } from './core/clock.js';
import type { Logger } from './core/logger.js';
import { createEnergyService, type EnergyDeps, type EnergyService } from './energy/index.js';
import type { ConnectionFactory } from './energy/gateway/connection.js';
import type { RecordingService } from './recordings/index.js';
import { yieldToIo } from './core/lifecycle.js';

export interface ComposeOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Bind address for both HTTP servers. */
  host: string;
  energyPort?: number;
  /** The recording sync is on unless `false` (the demo runs its own against the box simulator). */
  recordings?: boolean;
  clock?: Clock;
  connect?: ConnectionFactory;
  /** Discovery inputs for the energy bridge (the demo and tests give it loopback only). */
  discovery?: Pick<EnergyDeps, 'interfaces' | 'discoveryPort' | 'discoveryIncludeInternal'>;
}

/**
 * The one composition root: the headless entry, the demo and the Electron shell all build the
 * services here, in the same order, and stop them in reverse. One owner for both: the bridge's
 * passcode gate (passcode, sessions, lockout) also gates the recording sync's writes.
 */
export function composeServices(opts: ComposeOptions) {
  const energy: EnergyService = createEnergyService(
    { dataDir: opts.dataDir, host: opts.host, port: opts.energyPort ?? envPort(opts.env.SERVER_PORT), env: opts.env },
    {
      logger: opts.logger,
      clock: opts.clock,
      connect: opts.connect,
      ...opts.discovery,
      // The energy port may never be set to the recording sync's.
      otherPorts: () => (recordings?.port ? [{ port: recordings.port, holder: 'the recording sync' }] : []),
    },
  );
  // The recording sync's modules load after the bridge is up (its port answers sooner; the
  // recordings graph is as big as the bridge's). Null until then, and when switched off.
  let recordings: RecordingService | null = null;
  const loadRecordings = async (): Promise<RecordingService | null> => {
    if (opts.recordings === false) return null;
    if (recordings) return recordings;
    // The bridge is listening: requests that reached it meanwhile are served before, and between,
    // the steps of the recording sync's start (its module graph, its database, its routes).
    await yieldToIo();
    const { createRecordingService, recordingConfigFromEnv } = await import('./recordings/index.js');
    await yieldToIo();
    recordings = createRecordingService(
      { ...recordingConfigFromEnv(opts.env, opts.dataDir), host: opts.env.RECORDINGS_HOST?.trim() || opts.host },
      { logger: opts.logger, clock: opts.clock, owner: energy.owner },
    );
    return recordings;
  };
  const started: Array<{ stop(): Promise<void> }> = [];
  const services = [['energy', async () => energy], ['recordings', loadRecordings]] as const;
  return {
    energy,
    /** The recording sync, once `start`/`startEach` created it; null before that and when off. */
    get recordings() {
      return recordings;
    },
    dataDir: path.resolve(opts.dataDir),
    async start() {
      for (const [, make] of services) {
        const service = await make();
        if (!service) continue;
        try {
          await service.start();
        } catch (err) {
          // A service that failed half-way (a taken port, say) still releases what it opened.
          await service.stop().catch(() => undefined);
          throw err;
        }
        started.push(service);
      }
    },
    /**
     * The tray's start: every service is tried; one that cannot start is stopped (releasing what it
     * opened) and reported, and the others keep running. Headless and demo use `start()`.
     */
    async startEach(): Promise<ServiceFailure[]> {
      const failures: ServiceFailure[] = [];
      for (const [name, make] of services) {
        let service: EnergyService | RecordingService | null = null;
        try {
          service = await make();
          if (!service) continue;
          await service.start();
          started.push(service);
        } catch (error) {
          await service?.stop().catch(() => undefined);
          failures.push({ service: name, error });
        }
      }
      return failures;
    },
    async stop() {
      for (const s of started.splice(0).reverse()) await s.stop().catch((err) => opts.logger.error({ err }, 'stop failed'));
    },
  };
}

/** A service `startEach` could not start, and why. */
export interface ServiceFailure {
  service: 'energy' | 'recordings';
  error: unknown;
}

function envPort(v: string | undefined): number | undefined {
  return v && /^\d+$/.test(v) ? Number(v) : undefined;
}
