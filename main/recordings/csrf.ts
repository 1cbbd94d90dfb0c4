import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';

/** The placeholder used in development; production refuses to start with it (or with no secret). */
export const DEV_CSRF_SECRET = 'dev-only-csrf-secret-do-not-use-in-production';
export const CSRF_COOKIE = 'rs_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** No user accounts: the session identifier bound into every token is a constant. */
const SESSION_ID = 'recording-sync';

/**
 * Checks the secret the service would run with. In production an unset secret, the development
 * placeholder or one shorter than 32 characters refuses the start; elsewhere the placeholder is used.
 */
export function resolveCsrfSecret(secret: string | undefined, production: boolean): string {
  if (production) {
    if (!secret || secret === DEV_CSRF_SECRET) throw new Error('CSRF_SECRET must be set to a random value (32+ bytes) when NODE_ENV=production');
    if (secret.length < 32) throw new Error('CSRF_SECRET is too short: use 32 or more random bytes');
    return secret;
  }
  return secret || DEV_CSRF_SECRET;
}

const hmac = (secret: string, nonce: string) => crypto.createHmac('sha256', secret).update(`${SESSION_ID}.${nonce}`).digest('base64url');

/** A fresh token: a random nonce and its HMAC under the current secret. */
export function mintToken(secret: string): string {
  const nonce = crypto.randomBytes(18).toString('base64url');
  return `${nonce}.${hmac(secret, nonce)}`;
}

function tokenValid(secret: string, token: string): boolean {
  const [nonce, mac, extra] = token.split('.');
  if (!nonce || !mac || extra !== undefined) return false;
  const want = Buffer.from(hmac(secret, nonce));
  const got = Buffer.from(mac);
  return want.length === got.length && crypto.timingSafeEqual(want, got);
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Double-submit cookie: `GET /api/csrf-token` always mints a new token and overwrites the cookie
 * (whatever cookie came in, even one signed with an older secret), so a rotated secret never blocks
 * a client that refetches. State-changing requests need the header to equal the signed cookie, and
 * the token to verify under the current secret; otherwise 403 `csrf`.
 * Needs @fastify/cookie registered with the same secret.
 */
export function registerCsrf(app: FastifyInstance, secret: string): void {
  app.get('/api/csrf-token', async (_req, reply) => {
    const token = mintToken(secret);
    void reply.setCookie(CSRF_COOKIE, token, { signed: true, httpOnly: true, sameSite: 'strict', path: '/', secure: false });
    void reply.header('cache-control', 'no-store');
    return { token };
  });

  app.addHook('preHandler', async (req: FastifyRequest, _reply: FastifyReply) => {
    if (!UNSAFE.has(req.method)) return;
    const header = req.headers[CSRF_HEADER];
    const cookie = req.cookies[CSRF_COOKIE];
    if (typeof header !== 'string' || !header || !cookie) {
      throw new AppError(403, 'csrf', 'CSRF token missing: fetch /api/csrf-token and send it as x-csrf-token');
    }
    const unsigned = req.unsignCookie(cookie);
    if (!unsigned.valid || unsigned.value === null || !safeEqual(unsigned.value, header) || !tokenValid(secret, header)) {
      throw new AppError(403, 'csrf', 'CSRF token stale or invalid: fetch a new one from /api/csrf-token');
    }
  });
}
