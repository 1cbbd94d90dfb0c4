import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, conflict, notFound } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import type { ProgressEntry } from '../progress.js';
import { requireNoBody, type RouteContext } from './context.js';

const boxIdParams = z.object({ box_id: z.string().min(1).max(64) });

/**
 * A row whose download is live reads `downloading` (never the stored `partial` / `download in
 * progress`, which is only the truth if the process dies mid-transfer); its stored data is untouched.
 */
function downloadingRow(json: string, progress: ProgressEntry): string {
  return JSON.stringify({ ...(JSON.parse(json) as object), status: 'downloading', error: null, progress });
}

export function registerRecordingRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** The last body built while nothing was in progress, reused until a row changes. */
  let idle: { version: number; body: string } | null = null;

  /** Every row with `progress` (the live entry or null) appended; stored data is not touched. */
  app.get('/api/recordings', async (_req, reply) => {
    void reply.type('application/json; charset=utf-8');
    const live = ctx.progress.snapshot();
    const version = ctx.recordings.version();
    if (live.size === 0 && idle?.version === version) return reply.send(idle.body);
    const rows = ctx.recordings.listJson();
    const parts = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const p = live.size ? live.get(row.id) : undefined;
      parts[i] = p?.phase === 'downloading' ? downloadingRow(row.json, p) : `${row.withProgress}${p ? JSON.stringify(p) : 'null'}}`;
    }
    const body = `{"recordings":[${parts.join(',')}]}`;
    idle = live.size === 0 ? { version, body } : null;
    return reply.send(body);
  });

  /**
   * Manual ad scan: 202 and background work under the single-flight guard, 409 while that recording
   * is in any pipeline. Detect-only when the show's ad mode is `off`; cuts when it is `cut`.
   */
  app.post('/api/recordings/:box_id/ad-scan', async (req, reply) => {
    const { box_id } = parseInput(boxIdParams, req.params, 'params');
    requireNoBody(req.body);
    const row = ctx.recordings.get(box_id);
    if (!row) throw notFound(`No recording ${box_id}`);
    const busy = () => conflict('busy', `Recording ${box_id} is already being processed`, { owner: ctx.guard.owner(box_id) });
    if (ctx.guard.isBusy(box_id)) throw busy();
    if (row.status !== 'done' || !row.file_path) throw new AppError(409, 'not_downloaded', `Recording ${box_id} is not downloaded yet`);
    // A purged (tombstoned) row is scanned from its local file; without one there is nothing to scan.
    if (!fs.existsSync(row.file_path) && !fs.existsSync(`${row.file_path}.orig`)) {
      throw new AppError(409, 'file_missing', `The file of recording ${box_id} is not on disk: ${row.file_path}`);
    }
    const release = ctx.guard.tryAcquire(box_id, 'ad-scan');
    if (!release) throw busy();
    const scan = ctx.seams.adScan;
    void scan(row, ctx.stopSignal)
      .catch((err: unknown) => ctx.logger.error({ err, box_id }, 'ad scan failed'))
      .finally(release);
    return reply.status(202).send({ accepted: box_id });
  });

  /** Manual delete from the box through the cloud: 200 with the tombstone time, 502 naming the failed stage. */
  app.post('/api/recordings/:box_id/delete-from-box', { config: { rateLimit: { max: 30, timeWindow: 60_000 } } }, async (req) => {
    const { box_id } = parseInput(boxIdParams, req.params, 'params');
    requireNoBody(req.body);
    const row = ctx.recordings.get(box_id);
    if (!row) throw notFound(`No recording ${box_id}`);
    return ctx.seams.deleteFromBox(row, ctx.stopSignal);
  });
}
