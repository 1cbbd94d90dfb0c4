import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Clock, Timer } from '../core/clock.js';
import { EventStream } from '../core/event-stream.js';
import type { Logger } from '../core/logger.js';
import { parseInput } from '../core/validate.js';
import type { ProgressEntry, ProgressRegistry } from './progress.js';

/** The live progress is looked at this often while a page listens; an event goes out only when it changed. */
export const PROGRESS_PUSH_MS = 500;
/** Most pages listening at once (each holds one connection). */
const MAX_LISTENERS = 50;

const noQuery = z.object({}).strict();
const requireNoQuery = (query: unknown) => parseInput(noQuery, query ?? {}, 'query');

/**
 * What a page listening to `GET /api/progress/events` gets, on connect and on each change: every
 * live entry by box id (as `progress` in `GET /api/recordings`), the running sync's id, and the
 * recordings' version, which moves whenever a stored row changes (the page reads the list again
 * then, and only then).
 */
export interface ProgressView {
  progress: Record<string, ProgressEntry>;
  sync_running: number | null;
  version: number;
}

export interface ProgressFeedDeps {
  progress: ProgressRegistry;
  /** The recordings' version (recordings-store.ts). */
  version(): number;
  /** The running sync's id, null when none runs. */
  running(): number | null;
  /** Real elapsed time (the pushes and the keep-alive run on it, like the progress itself). */
  clock: Clock;
  logger: Logger;
}

/**
 * Live progress for the pages as Server-Sent Events (core/event-stream.ts): the Overview shows each
 * download's progress from these instead of reading the whole list every 2 s.
 */
export function createProgressFeed(deps: ProgressFeedDeps) {
  const stream = new EventStream(deps.clock, { maxClients: () => MAX_LISTENERS, logger: deps.logger });
  const view = (): ProgressView => ({ progress: Object.fromEntries(deps.progress.snapshot()), sync_running: deps.running(), version: deps.version() });
  let last = '';
  const timer: Timer = deps.clock.setInterval(() => {
    if (stream.clientCount === 0) return;
    const now = view();
    const text = JSON.stringify(now);
    if (text === last) return;
    last = text;
    stream.broadcast(now);
  }, PROGRESS_PUSH_MS);
  timer.unref?.();
  return {
    routes(app: FastifyInstance) {
      app.get('/api/progress/events', async (req, reply) => {
        requireNoQuery(req.query);
        stream.handle(req, reply, view());
      });
    },
    close() {
      deps.clock.clear(timer);
      stream.close();
    },
  };
}
