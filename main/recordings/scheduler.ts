import type { ScheduledTask } from 'node-cron';
import { systemClock, type Clock, type Timer } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { zoneOffset } from '../core/time-zone.js';
import { nextRun, parseCron } from './cron.js';
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

/** The longest a timer may wait (setTimeout's limit); a later run is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Runs a `cron` sync on the `sync_cron` setting and reloads when that setting changes, without a
 * restart. A tick while a sync runs is skipped (logged), never queued. The next run is found by
 * cron.ts from the zone's offsets; only expressions using node-cron's rarer forms (`L`, `W`, `#`)
 * are handed to node-cron, loaded then (it formats dates through Intl, which costs ICU's locale data).
 */
export function createSyncScheduler(deps: { settings: RecordingSettings; engine: SyncEngine; logger: Logger; timezone: string; clock?: Clock }): SyncScheduler {
  const clock = deps.clock ?? systemClock;
  let expression = '';
  let generation = 0;
  let timer: Timer | undefined;
  let nextAt: number | null = null;
  let task: ScheduledTask | null = null;
  let unsubscribe: (() => void) | null = null;
  const log = deps.logger.child({ component: 'scheduler' });
  const offset = zoneOffset(deps.timezone);

  const fire = async () => {
    try {
      const { done } = deps.engine.start('cron');
      await done;
    } catch (err) {
      if (err instanceof AppError && err.code === 'sync_running') log.info('scheduled sync skipped: a sync is already running');
      else if (!(err instanceof AppError && err.code === 'stopping')) log.error({ err }, 'scheduled sync failed to start');
    }
  };

  const clear = () => {
    generation++;
    if (timer) clock.clear(timer);
    timer = undefined;
    nextAt = null;
    if (task) void task.destroy();
    task = null;
  };

  /** Waits for `at`, fires, and arms the run after it. */
  const arm = (spec: NonNullable<ReturnType<typeof parseCron>>, after: number) => {
    nextAt = nextRun(spec, after, offset);
    if (nextAt === null) return;
    const wait = () => {
      const left = nextAt! - clock.now();
      if (left > 0) {
        timer = clock.setTimeout(wait, Math.min(left, MAX_TIMER_MS));
        timer.unref?.();
        return;
      }
      void fire();
      arm(spec, nextAt!);
    };
    wait();
  };

  const schedule = (expr: string) => {
    clear();
    expression = expr;
    const spec = parseCron(expr);
    if (spec) arm(spec, clock.now());
    else {
      const mine = generation;
      void import('node-cron').then(({ default: cron }) => {
        if (mine !== generation) return;
        task = cron.createTask(expr, fire, { timezone: deps.timezone, name: 'recording-sync', noOverlap: true });
        void task.start();
      });
    }
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
      const held = task;
      clear();
      if (held) await held.destroy();
    },
    status: () => {
      const next = task ? task.getNextRun() : nextAt === null ? null : new Date(nextAt);
      return { cron: expression, next_run: next?.toISOString() ?? null, timezone: deps.timezone };
    },
    fire,
  };
}
