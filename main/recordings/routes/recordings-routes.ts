import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, conflict, notFound } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import type { RecordingRow } from '../store/recordings-store.js';
import { iso, type RouteContext } from './context.js';

const boxIdParams = z.object({ box_id: z.string().min(1).max(64) });

/** A stored row as the API shows it (ISO timestamps) plus the live `progress` entry or null. */
export function recordingView(r: RecordingRow, progress: unknown) {
  return {
    box_id: r.box_id,
    show_id: r.show_id,
    show_title: r.show_title,
    box_title: r.box_title,
    season: r.season,
    episode: r.episode,
    status: r.status,
    error: r.error,
    size: r.size,
    expected_size: r.expected_size,
    downloaded_at: iso(r.downloaded_at),
    file_path: r.file_path,
    purged_at: iso(r.purged_at),
    ad_status: r.ad_status,
    ad_breaks_json: r.ad_breaks_json,
    ad_processed_at: iso(r.ad_processed_at),
    deleted_from_box_at: iso(r.deleted_from_box_at),
    updated_at: iso(r.updated_at),
    progress,
  };
}

export function registerRecordingRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get('/api/recordings', async () => {
    const live = ctx.progress.snapshot();
    return { recordings: ctx.recordings.list().map((r) => recordingView(r, live.get(r.box_id) ?? null)) };
  });

  /** Manual ad scan: 202 and background work, 409 while that recording is in any pipeline. */
  app.post('/api/recordings/:box_id/ad-scan', async (req, reply) => {
    const { box_id } = parseInput(boxIdParams, req.params, 'params');
    const row = ctx.recordings.get(box_id);
    if (!row) throw notFound(`No recording ${box_id}`);
    if (!ctx.seams.adScan) throw new AppError(501, 'not_available', 'Ad removal is not available in this version');
    if (!row.file_path) throw new AppError(409, 'not_downloaded', `Recording ${box_id} has no local file to scan`);
    const release = ctx.guard.tryAcquire(box_id, 'ad-scan');
    if (!release) throw conflict('busy', `Recording ${box_id} is already being processed`, { owner: ctx.guard.owner(box_id) });
    const scan = ctx.seams.adScan;
    void scan(row, ctx.stopSignal)
      .catch((err: unknown) => ctx.logger.error({ err, box_id }, 'ad scan failed'))
      .finally(release);
    return reply.status(202).send({ accepted: box_id });
  });
}
