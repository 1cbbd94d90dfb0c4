import cron, { type ScheduledTask } from 'node-cron';
import { AppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { RecordingSettings } from './settings.js';
import type { SyncEngine } from './sync/engine.js';

export interface SyncScheduler {
  start(): void;
  stop(): Promise<void>;
  /** The schedule in force and its next run (ISO), for the UI and tests. */
  status(): { cron: string; next_run: string | null; timezone: string };
  /** Runs the scheduled job now (what the cron tick does). */
  fire(): Promise<void>;
}

/**
 * Runs a `cron` sync on the `sync_cron` setting (node-cron 4) and reloads when that setting changes,
 * without a restart. A tick while a sync runs is skipped (logged), never queued.
 */
export function createSyncScheduler(deps: { settings: RecordingSettings; engine: SyncEngine; logger: Logger; timezone: string }): SyncScheduler {
  let task: ScheduledTask | null = null;
  let expression = '';
  let unsubscribe: (() => void) | null = null;
  const log = deps.logger.child({ component: 'scheduler' });

  const fire = async () => {
    try {
      const { done } = deps.engine.start('cron');
      await done;
    } catch (err) {
      if (err instanceof AppError && err.code === 'sync_running') log.info('scheduled sync skipped: a sync is already running');
      else if (!(err instanceof AppError && err.code === 'stopping')) log.error({ err }, 'scheduled sync failed to start');
    }
  };

  const schedule = (expr: string) => {
    if (task) void task.destroy();
    expression = expr;
    task = cron.createTask(expr, fire, { timezone: deps.timezone, name: 'recording-sync', noOverlap: true });
    void task.start();
    log.info({ cron: expr }, 'sync schedule set');
  };

  return {
    start() {
      schedule(deps.settings.get().sync_cron);
      unsubscribe = deps.settings.onChange((changed, next) => {
        if (changed.includes('sync_cron')) schedule(next.sync_cron);
      });
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      if (task) await task.destroy();
      task = null;
    },
    status: () => ({ cron: expression, next_run: task?.getNextRun()?.toISOString() ?? null, timezone: deps.timezone }),
    fire,
  };
}
