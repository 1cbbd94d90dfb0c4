import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { conflict } from '../../core/errors.js';
import { ownerOnlyError } from '../../core/owner-only.js';
import { parseInput } from '../../core/validate.js';
import { applyFetcharrPlan } from '../import/fetcharr-apply.js';
import { DEFAULT_MEDIA_ROOT_FROM, previewOf } from '../import/fetcharr-plan.js';
import { planFetcharrOffThread } from '../import/plan-thread.js';
import type { RouteContext } from './context.js';

const folder = z.string().trim().min(1).max(4096).refine((p) => !p.includes('\0'), 'must not contain NUL');

/**
 * Body of `POST /api/import/preview` and `POST /api/import`: fetcharr's config folder (the one
 * holding its state.db, or the folder above `config/`), the media root as fetcharr wrote its paths
 * (default `/media`, its container mount) and where those files are now (default: our media root).
 */
export const fetcharrImportSchema = z
  .object({
    dir: folder.refine((p) => path.isAbsolute(p), 'must be an absolute path'),
    media_root_from: folder.default(DEFAULT_MEDIA_ROOT_FROM),
    media_root_to: folder.optional(),
  })
  .strict();

/** Switching from fetcharr: preview what a folder holds, then import it (see docs/import-fetcharr.md). */
export function registerImportRoutes(app: FastifyInstance, ctx: RouteContext): void {
  // The folder is read on a thread of its own, within a time budget (plan-thread.ts).
  const plan = (body: unknown) => {
    const b = parseInput(fetcharrImportSchema, body ?? {}, 'body');
    return planFetcharrOffThread({ dir: b.dir, mediaRootFrom: b.media_root_from, mediaRootTo: b.media_root_to ?? ctx.settings.get().media_root, appFolders: [...ctx.appFolders], now: ctx.clock.now() });
  };

  // The folders are the PC's: only its owner imports from them (from the PC, or with a session).
  const ownerOnly = { preHandler: async (req: FastifyRequest) => { if (!ctx.isOwner(req)) throw ownerOnlyError(); } };

  app.post('/api/import/preview', ownerOnly, async (req) => ({ preview: previewOf(await plan(req.body)) }));

  app.post('/api/import', ownerOnly, async (req) => {
    const p = await plan(req.body);
    const running = ctx.engine.current();
    if (running) throw conflict('sync_running', `sync run ${running.run.id} is running: import when it has finished`, { run_id: running.run.id });
    const report = applyFetcharrPlan(p, {
      db: ctx.db,
      shows: ctx.shows,
      recordings: ctx.recordings,
      settings: ctx.settings,
      configDir: path.dirname(ctx.db.name),
      clock: ctx.clock,
    });
    ctx.logger.info({ from: 'fetcharr', dir: p.source.stateDb, written: report.written }, 'imported a fetcharr config folder');
    return { report };
  });
}
