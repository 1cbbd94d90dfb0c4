import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import type { Show } from '../store/shows-store.js';
import { AD_MODES, MARK_CHAPTERS, SHOW_AD_FIELDS } from '../store/show-ad-options.js';
import { checkShowPaths, FOLDER_LABELS } from '../sync/naming.js';
import { iso, requireNoBody, type RouteContext } from './context.js';

/** A show's fields, each with its name in words (refusals say "Folder name: …", not the key). */
const showFields = {
  name: z.string().trim().min(1).max(200).meta({ label: 'Show name' }),
  dest_folder: z.string().max(500).meta({ label: FOLDER_LABELS.dest_folder }),
  season_template: z.string().max(200).meta({ label: FOLDER_LABELS.season_template }),
  enabled: z.boolean().meta({ label: 'Following' }),
  ad_mode: z.enum(AD_MODES).meta(SHOW_AD_FIELDS.ad_mode),
  delete_after_download: z.boolean().meta({ label: 'Delete from the box after download' }),
  mark_chapters: z.enum(MARK_CHAPTERS).meta(SHOW_AD_FIELDS.mark_chapters),
  mark_counts_as_cut: z.boolean().meta(SHOW_AD_FIELDS.mark_counts_as_cut),
};

/** `POST /api/shows` body: a followed show; `name` is matched case-insensitively as a substring of box folder titles. */
export const showCreateSchema = z
  .object({
    ...showFields,
    season_template: showFields.season_template.default('Season {season}'),
    enabled: showFields.enabled.default(true),
    ad_mode: showFields.ad_mode.default('off'),
    delete_after_download: showFields.delete_after_download.default(false),
    mark_chapters: showFields.mark_chapters.default('none'),
    mark_counts_as_cut: showFields.mark_counts_as_cut.default(false),
  })
  .strict();

/** `PATCH /api/shows/:id` body: any subset of the fields. */
export const showPatchSchema = z.object(showFields).partial().strict();
const idParams = z.object({ id: z.coerce.number().int().positive() });

export const showView = (s: Show) => ({ ...s, created_at: iso(s.created_at), updated_at: iso(s.updated_at) });

export function registerShowRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get('/api/shows', async () => ({ shows: ctx.shows.list().map(showView) }));

  app.post('/api/shows', async (req, reply) => {
    const body = parseInput(showCreateSchema, req.body ?? {}, 'body');
    checkShowPaths(ctx.settings.get().media_root, body.dest_folder, body.season_template);
    const show = ctx.shows.create(body, ctx.clock.now());
    return reply.status(201).send({ show: showView(show) });
  });

  app.patch('/api/shows/:id', async (req) => {
    const { id } = parseInput(idParams, req.params, 'params');
    const patch = parseInput(showPatchSchema, req.body ?? {}, 'body');
    const current = ctx.shows.get(id);
    if (!current) throw notFound(`No show ${id}`);
    checkShowPaths(ctx.settings.get().media_root, patch.dest_folder ?? current.dest_folder, patch.season_template ?? current.season_template);
    return { show: showView(ctx.shows.update(id, patch, ctx.clock.now())!) };
  });

  app.delete('/api/shows/:id', async (req) => {
    const { id } = parseInput(idParams, req.params, 'params');
    requireNoBody(req.body);
    if (!ctx.shows.remove(id)) throw notFound(`No show ${id}`);
    return { deleted: id };
  });
}
