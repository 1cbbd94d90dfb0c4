import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../core/validate.js';
import type { Poller } from '../live/poller.js';

const rescanBody = z.object({}).strict();

export interface GatewayRoutesDeps {
  /** The passcode gate (security.requireSession). */
  gate: preHandlerAsyncHookHandler;
  poller: Pick<Poller, 'rescan' | 'enumeration'>;
}

/**
 * POST /api/gateway/rescan: re-check which unit ids hold inverters. The probes run in the
 * background between polls (one at a time, short timeout), so the answer is immediate (202):
 * `queued` unit ids to probe, the inverters read now, and how many probes are pending.
 * New inverters appear in /api/state and the event stream as they are found.
 */
export function registerGatewayRoutes(app: FastifyInstance, deps: GatewayRoutesDeps): void {
  app.post('/api/gateway/rescan', { preHandler: deps.gate }, async (req, reply) => {
    parseInput(rescanBody, req.body ?? {}, 'body');
    const queued = deps.poller.rescan();
    return reply.code(202).send({ queued, ...deps.poller.enumeration });
  });
}
