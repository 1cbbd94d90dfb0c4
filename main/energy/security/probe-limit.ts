import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.js';

/**
 * Per client and minute, for every route that reaches out to the network on a client's request
 * (gateway, alert and weather tests, the gateway scan): enough for a user retyping an address, too
 * few for a scan of the LAN through the bridge.
 */
export const PROBE_RATE = { max: 6, timeWindow: 60_000 } as const;
/** The place search runs as the user types a name: a little more room, still no scanner. */
export const PLACE_SEARCH_RATE = { max: 20, timeWindow: 60_000 } as const;

/**
 * Registers probing routes in a scope of their own carrying the rate-limit plugin, so its hooks
 * stay on these routes; each route opts in with `config: { rateLimit: PROBE_RATE }`. A client over
 * the limit gets a 429 `rate_limited` saying how long to wait.
 */
export function registerProbeRoutes(app: FastifyInstance, what: string, register: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_req, ctx) => new AppError(429, 'rate_limited', `Too many ${what}: at most ${ctx.max} per minute; retry in ${ctx.after}.`),
    });
    register(scope);
  });
}
