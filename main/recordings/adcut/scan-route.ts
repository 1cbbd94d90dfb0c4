import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { AppError, conflict, notFound } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { parseInput } from '../../core/validate.js';
import { boxIdParams, requireNoBody } from '../features/route-input.js';
import type { RecordingRow, RecordingsStore } from '../store/recordings-store.js';
import type { FlightGuard } from '../sync/single-flight.js';
import { keptPathOf } from './in-place.js';
import { origPathOf } from './swap.js';

export interface AdScanRouteDeps {
  recordings: RecordingsStore;
  guard: FlightGuard;
  logger: Logger;
  /** Aborted when the service stops. */
  stopSignal: AbortSignal;
  /** Scans (and cuts, per the show's mode) one downloaded recording; runs under the guard. */
  scan(row: RecordingRow, signal: AbortSignal): Promise<void>;
}

/**
 * Manual ad scan: 202 and background work under the single-flight guard, 409 while that recording
 * is in any pipeline. Detect-only when the show's ad mode is `off`; cuts when it is `cut`.
 */
export function registerAdScanRoute(app: FastifyInstance, deps: AdScanRouteDeps): void {
  app.post('/api/recordings/:box_id/ad-scan', async (req, reply) => {
    const { box_id } = parseInput(boxIdParams, req.params, 'params');
    requireNoBody(req.body);
    const row = deps.recordings.get(box_id);
    if (!row) throw notFound(`No recording ${box_id}`);
    const busy = () => conflict('busy', `Recording ${box_id} is already being processed`, { owner: deps.guard.owner(box_id) });
    if (deps.guard.isBusy(box_id)) throw busy();
    if (row.status !== 'done' || !row.file_path) throw new AppError(409, 'not_downloaded', `Recording ${box_id} is not downloaded yet`);
    // A purged (tombstoned) row is scanned from its local file (or the original a cut or an in-place
    // chaptered copy keeps); without one there is nothing to scan.
    const on = [row.file_path, origPathOf(row.file_path), row.original_path ?? keptPathOf(row.file_path)];
    if (!on.some((p) => fs.existsSync(p))) {
      throw new AppError(409, 'file_missing', `The file of recording ${box_id} is not on disk: ${row.file_path}`);
    }
    const release = deps.guard.tryAcquire(box_id, 'ad-scan');
    if (!release) throw busy();
    void deps
      .scan(row, deps.stopSignal)
      .catch((err: unknown) => deps.logger.error({ err, box_id }, 'ad scan failed'))
      .finally(release);
    return reply.status(202).send({ accepted: box_id });
  });
}
