import type { FastifyInstance } from 'fastify';

/**
 * The one feature contract both services use (DESIGN rule 9). A feature is a folder exporting a
 * `FeatureModule`: its name, its own settings (in its service's settings model: the energy bridge's
 * zod sections, the recording sync's setting definitions) and `create(ctx)` returning what it adds
 * to the running service. The service composes a list of them (main/energy/features.ts,
 * main/recordings/features/index.ts); adding a feature is its folder and one line in that list.
 *
 * A feature never imports another feature or the list, and its context gives it its own settings
 * and the service's core settings only (main/import-cycles.test.ts keeps the imports so).
 */
export interface FeatureModule<Settings, Ctx, Running extends RunningFeature> {
  readonly name: string;
  /** The settings this feature owns (schema, defaults, environment seeds, secret fields, `applies`). */
  readonly settings?: Settings;
  /** Makes the running feature; absent for a feature that is settings only. */
  create?(ctx: Ctx): Running;
}

/**
 * What a running feature adds to its service; every member is optional. Each service widens it with
 * its own hooks: the energy bridge's per-poll hook, snapshot block and live-state fields; the
 * recording sync's per-sync steps.
 */
export interface RunningFeature {
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
  /** Registers the feature's HTTP routes on the service's app. */
  routes?(app: FastifyInstance): void;
}

/**
 * Starts features in list order and hands back the stop: the started ones in reverse order, a
 * failing stop logged and the rest still stopped. Both services start and stop their lists so.
 */
export async function startFeatures<F extends RunningFeature>(features: readonly F[], onStopError: (err: unknown, feature: F) => void): Promise<() => Promise<void>> {
  const started: F[] = [];
  const stop = async () => {
    for (const f of started.splice(0).reverse()) {
      try {
        await f.stop?.();
      } catch (err) {
        onStopError(err, f);
      }
    }
  };
  try {
    for (const f of features) {
      started.push(f);
      await f.start?.();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}
