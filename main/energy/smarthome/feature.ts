import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, invalid } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import type { EnergyFeatureModule, FeatureFactory } from '../feature.js';
import { fulfill, fulfillmentRequest, UnknownIntentError } from './intents.js';
import { smartHomeSection } from './settings.js';

/** Timing-safe: both sides hashed to the same length first, so neither length nor content leaks. */
export function tokenMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

const authQuery = z
  .object({
    redirect_uri: z.string().max(2048).refine(isHttpsUrl, 'must be an https URL (no open redirect)'),
    state: z.string().max(1024).optional(),
    client_id: z.string().max(256).optional(),
    response_type: z.string().max(32).optional(),
    scope: z.string().max(1024).optional(),
    user_locale: z.string().max(32).optional(),
  })
  .passthrough();

const tokenBody = z
  .object({
    grant_type: z.enum(['authorization_code', 'refresh_token']),
    code: z.string().max(1024).optional(),
    refresh_token: z.string().max(1024).optional(),
    client_id: z.string().max(256).optional(),
    client_secret: z.string().max(256).optional(),
    redirect_uri: z.string().max(2048).optional(),
  })
  .passthrough();

function isHttpsUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'https:' && u.hostname !== '';
  } catch {
    return false;
  }
}

const FULFILLMENT_BODY_LIMIT = 64 * 1024;

/**
 * Smart-home fulfillment (energy spec: Fulfillment, Authentication 9): POST /fulfillment answers
 * SYNC, QUERY, EXECUTE and DISCONNECT; it checks the bearer token (timing-safe) whenever
 * `smartHome.authToken` (SMART_HOME_AUTH_TOKEN) is set and is the deliberate exception to the
 * passcode gate. `/auth` and `/token` are account-linking stubs that accept any credentials.
 */
export const createSmartHomeFeature: FeatureFactory<typeof smartHomeSection> = (ctx) => {
  const agentUserId = `energy-${createHash('sha256').update(ctx.dataDir).digest('hex').slice(0, 12)}`;

  const requireEnabled = () => {
    if (!ctx.settings().smartHome.enabled) throw new AppError(404, 'smart_home_off', 'Smart-home fulfillment is off: turn on the smart-home link in the settings (or set SMART_HOME_AUTH_TOKEN).');
  };

  const checkBearer = (req: FastifyRequest) => {
    const expected = ctx.settings().smartHome.authToken;
    if (!expected) return;
    const m = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    if (!m || !tokenMatches(m[1]!.trim(), expected)) {
      throw new AppError(401, 'bad_token', 'Missing or wrong bearer token for /fulfillment (smartHome.authToken).', { headers: { 'www-authenticate': 'Bearer' } });
    }
  };

  return {
    name: 'smarthome',
    routes(app) {
      app.register(async (scope) => {
        // Account linking posts forms; parsed only in this scope, bounded.
        scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_req, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(body as string)));
        });

        scope.post('/fulfillment', { bodyLimit: FULFILLMENT_BODY_LIMIT }, async (req, reply: FastifyReply) => {
          requireEnabled();
          checkBearer(req);
          const body = parseInput(fulfillmentRequest, req.body ?? null, 'body');
          try {
            const out = fulfill(body, { state: ctx.state.get(), settings: ctx.settings(), agentUserId, bridgeName: ctx.bridgeName?.() ?? '' });
            if (out === null) {
              ctx.logger.info('smart-home account unlinked (DISCONNECT)');
              return reply.send({});
            }
            return out;
          } catch (err) {
            if (err instanceof UnknownIntentError) throw invalid('inputs.0.intent', err.message);
            throw err;
          }
        });

        // Stub OAuth: any credentials; redirects only to https (no open redirect).
        scope.get('/auth', async (req, reply) => {
          requireEnabled();
          const q = parseInput(authQuery, req.query, 'query');
          const target = new URL(q.redirect_uri);
          target.searchParams.set('code', randomBytes(16).toString('hex'));
          if (q.state !== undefined) target.searchParams.set('state', q.state);
          return reply.redirect(target.toString(), 302);
        });

        scope.post('/token', async (req) => {
          requireEnabled();
          parseInput(tokenBody, req.body ?? {}, 'body');
          const token = ctx.settings().smartHome.authToken;
          if (!token) throw new AppError(409, 'no_token', 'No smart-home token is set: set smartHome.authToken (SMART_HOME_AUTH_TOKEN) first, then link the account.');
          return { token_type: 'Bearer', access_token: token, refresh_token: token, expires_in: 86_400 };
        });
      });
    },
  };
};

/** Smart-home fulfillment: its settings section and its feature. */
export const smartHomeFeature: EnergyFeatureModule<typeof smartHomeSection> = { name: 'smartHome', settings: [smartHomeSection], create: createSmartHomeFeature };
