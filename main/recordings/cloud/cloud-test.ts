import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { FetchLike } from '../box/description.js';
import { cloudAccountOf } from './box-delete.js';
import { authenticate, CLOUD_TIMINGS, CloudError, type CloudTimings } from './cloud-client.js';

/** `POST /api/cloud-test`: signs in with the stored activation code and PIN and lists the account's boxes. */
export async function testCloudAccount(deps: { settings: Parameters<typeof cloudAccountOf>[0]; fetch: FetchLike; logger: Logger; timings?: Partial<CloudTimings>; signal?: AbortSignal }) {
  try {
    const { terminals } = await authenticate(deps.fetch, cloudAccountOf(deps.settings), { timeoutMs: deps.timings?.requestTimeoutMs ?? CLOUD_TIMINGS.requestTimeoutMs, signal: deps.signal });
    const boxes = terminals.map((t) => ({ id: t.id, friendly_name: t.friendly_name, pvr: t.pvr, status: t.status }));
    const names = boxes.map((b) => `${b.friendly_name || b.id}${b.status ? ` (${b.status})` : ''}`).join(', ');
    return { ok: true, boxes, message: boxes.length ? `Signed in: ${boxes.length} box${boxes.length === 1 ? '' : 'es'}: ${names}` : 'Signed in, but the account has no box' };
  } catch (err) {
    if (!(err instanceof CloudError)) throw err;
    deps.logger.warn({ stage: err.stage, error: err.message }, 'cloud test failed');
    throw new AppError(502, 'cloud_failed', err.message, { extra: { stage: err.stage } });
  }
}
