import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import { RATE_LIMITS } from '../http-security.js';
import type { SyncRun } from '../store/sync-runs-store.js';
import { iso, requireNoBody, type RouteContext } from './context.js';

export const runView = (r: SyncRun) => ({ ...r, started_at: iso(r.started_at), finished_at: iso(r.finished_at) });

const idParams = z.object({ id: z.coerce.number().int().positive() });
const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }).strict();

/**
 * `POST /api/sync` and `POST /api/shows/:id/sync` start a run in the background and answer 202
 * with it; while one runs they answer 409 `sync_running` carrying `run_id`. History is under
 * `/api/sync-runs`.
 */
export function registerSyncRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const rateLimit = RATE_LIMITS.sync;

  app.post('/api/sync', { config: { rateLimit } }, async (req, reply) => {
    requireNoBody(req.body);
    const { run } = ctx.engine.start('manual');
    return reply.status(202).send({ run: runView(run) });
  });

  app.post('/api/shows/:id/sync', { config: { rateLimit } }, async (req, reply) => {
    const { id } = parseInput(idParams, req.params, 'params');
    requireNoBody(req.body);
    if (!ctx.shows.get(id)) throw notFound(`No show ${id}`);
    const { run } = ctx.engine.start('show', id);
    return reply.status(202).send({ run: runView(run) });
  });

  app.get('/api/sync', async () => {
    const cur = ctx.engine.current();
    return { running: cur ? runView(ctx.runs.get(cur.run.id) ?? cur.run) : null, schedule: ctx.scheduler.status() };
  });

  app.get('/api/sync-runs', async (req) => {
    const { limit } = parseInput(listQuery, req.query, 'query');
    return { runs: ctx.runs.list(limit).map(runView) };
  });

  app.get('/api/sync-runs/:id', async (req) => {
    const { id } = parseInput(idParams, req.params, 'params');
    const run = ctx.runs.get(id);
    if (!run) throw notFound(`No sync run ${id}`);
    return { run: runView(run) };
  });

  app.delete('/api/sync-runs', async (req) => {
    requireNoBody(req.body);
    return { deleted: ctx.runs.clearFinished() };
  });
}
