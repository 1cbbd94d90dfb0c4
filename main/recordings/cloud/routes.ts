import type { FastifyInstance } from 'fastify';
import { notFound } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import { boxIdParams, requireNoBody } from '../features/route-input.js';
import { RATE_LIMITS } from '../http-security.js';
import type { RecordingRow, RecordingsStore } from '../store/recordings-store.js';

export interface CloudRouteDeps {
  recordings: RecordingsStore;
  /** Aborted when the service stops. */
  stopSignal: AbortSignal;
  /** Signs in and lists the account's boxes. */
  test(): Promise<unknown>;
  /** Deletes one recording from the box through the cloud; the row becomes a tombstone. */
  deleteFromBox(row: RecordingRow, signal: AbortSignal): Promise<unknown>;
}

/** The cloud account test and the manual delete from the box. */
export function registerCloudRoutes(app: FastifyInstance, deps: CloudRouteDeps): void {
  app.post('/api/cloud-test', { config: { rateLimit: RATE_LIMITS.cloudTest } }, async (req) => {
    requireNoBody(req.body);
    return deps.test();
  });

  /** Manual delete from the box through the cloud: 200 with the tombstone time, 502 naming the failed stage. */
  app.post('/api/recordings/:box_id/delete-from-box', { config: { rateLimit: { max: 30, timeWindow: 60_000 } } }, async (req) => {
    const { box_id } = parseInput(boxIdParams, req.params, 'params');
    requireNoBody(req.body);
    const row = deps.recordings.get(box_id);
    if (!row) throw notFound(`No recording ${box_id}`);
    return deps.deleteFromBox(row, deps.stopSignal);
  });
}
