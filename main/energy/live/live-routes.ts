import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput, presenceFlag } from '../../core/validate.js';
import type { EventStream } from '../../core/event-stream.js';
import type { LiveStateStore } from '../live-state.js';
import { withoutGatewayHost } from './public-state.js';
import type { Snapshot } from '../published.js';

// Unknown parameter names are ignored (cache busters such as `_=1700000000`); bad values of known ones are a 400.
const prettyQuery = z.object({ pretty: presenceFlag });
const noQuery = z.object({});

/** Sends JSON, indented when `pretty` is set. */
export function sendJson(reply: import('fastify').FastifyReply, body: unknown, pretty: boolean) {
  return reply.type('application/json; charset=utf-8').send(pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body));
}

export interface LiveRoutesDeps {
  state: LiveStateStore;
  events: EventStream;
  snapshot: () => Snapshot;
  /** Whether this request may see the gateway host (no passcode set, or a session); default yes. */
  seesGatewayHost?: (req: FastifyRequest) => boolean;
}

/** GET /api/state, GET /api/snapshot (?pretty), GET /events (the state, then `event: snapshot`, on connect and per poll). */
export function registerLiveRoutes(app: FastifyInstance, deps: LiveRoutesDeps): void {
  const sees = deps.seesGatewayHost ?? (() => true);
  app.get('/api/state', async (req, reply) => {
    const { pretty } = parseInput(prettyQuery, req.query, 'query');
    const state = deps.state.get();
    return sendJson(reply, sees(req) ? state : withoutGatewayHost(state), pretty);
  });

  app.get('/api/snapshot', async (req, reply) => {
    const { pretty } = parseInput(prettyQuery, req.query, 'query');
    return sendJson(reply, deps.snapshot(), pretty);
  });

  app.get('/events', async (req, reply) => {
    parseInput(noQuery, req.query, 'query');
    deps.events.handle(req, reply, deps.state.get(), () => sees(req), [{ event: 'snapshot', data: deps.snapshot() }]);
  });
}
