import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../core/errors.js';
import { registerCsrf } from './csrf.js';

/** Per client and per route limits of the on-demand endpoints that reach the box, cloud or media server. */
export const RATE_LIMITS = {
  discovery: { max: 6, timeWindow: 60_000 },
  cloudTest: { max: 6, timeWindow: 60_000 },
  sync: { max: 12, timeWindow: 60_000 },
  boxShows: { max: 12, timeWindow: 60_000 },
} as const;

/**
 * The headers every response of the service carries, the host check's 403s included (the HTTP
 * factory registers them before that check): `X-Robots-Tag`, a strict CSP (scripts from self plus
 * eval), no HSTS (plain HTTP).
 */
export async function registerRecordingHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (_req, reply) => {
    void reply.header('x-robots-tag', 'noindex, nofollow');
  });
  await app.register(helmet, {
    hsts: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
}

/** The CSRF double-submit check and the rate-limit plugin (routes opt in with `config.rateLimit`). */
export async function registerHttpSecurity(app: FastifyInstance, csrfSecret: string): Promise<void> {
  await app.register(cookie, { secret: csrfSecret });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) =>
      new AppError(429, 'rate_limited', `Too many requests: at most ${ctx.max} per minute; retry in ${ctx.after}`),
  });
  registerCsrf(app, csrfSecret);
}
