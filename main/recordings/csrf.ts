import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';

/** The placeholder older versions used in development: refused as a configured secret in every mode. */
export const DEV_CSRF_SECRET = 'dev-only-csrf-secret-do-not-use-in-production';
/** File in the data folder holding the generated secret when none is configured (mode 0600). */
export const CSRF_SECRET_FILE = 'csrf-secret';
export const CSRF_COOKIE = 'rs_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** No user accounts: the session identifier bound into every token is a constant. */
const SESSION_ID = 'recording-sync';

/**
 * The secret the service runs with. A configured `CSRF_SECRET` must not be the old development
 * placeholder and must have 32 or more characters (any mode; the start is refused otherwise). With
 * none configured, a random secret generated on the first start and kept in `dataDir/csrf-secret`
 * (mode 0600) is used, in production too: never a constant from the source.
 */
export function resolveCsrfSecret(secret: string | undefined, production: boolean, dataDir: string): { secret: string; source: 'configured' | 'stored' | 'generated' } {
  if (secret) {
    if (secret === DEV_CSRF_SECRET) throw new Error('CSRF_SECRET is the development placeholder: set a random value (32+ bytes) or leave it unset to use a generated one');
    if (secret.length < 32) throw new Error(`CSRF_SECRET is too short: use 32 or more random bytes${production ? ' (NODE_ENV=production)' : ''}`);
    return { secret, source: 'configured' };
  }
  return loadOrCreateCsrfSecret(dataDir);
}

/** Reads the persisted secret, or generates and stores one (also when the file is missing, truncated or unreadable garbage). */
export function loadOrCreateCsrfSecret(dataDir: string): { secret: string; source: 'stored' | 'generated' } {
  const file = path.join(dataDir, CSRF_SECRET_FILE);
  // A temp file left by a kill mid-write is dropped.
  try {
    for (const name of fs.readdirSync(dataDir)) if (/^csrf-secret\.\d+\.tmp$/.test(name)) fs.rmSync(path.join(dataDir, name), { force: true });
  } catch {
    // no data folder yet
  }
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{43,512}$/.test(stored)) {
      // Owner only, whatever it was (a no-op when it already is; on Windows it only clears read-only).
      fs.chmodSync(file, 0o600);
      return { secret: stored, source: 'stored' };
    }
  } catch {
    // missing or unreadable: generate below
  }
  // 32 random bytes are 43 base64url characters.
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  // Created owner-only (stale temp files were removed above, so this one is new), then renamed
  // into place: a kill mid-write never leaves a truncated secret behind.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${secret}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return { secret, source: 'generated' };
}

const hmac = (secret: string, nonce: string) => crypto.createHmac('sha256', secret).update(`${SESSION_ID}.${nonce}`).digest('base64url');

/** A fresh token: a random nonce and its HMAC under the current secret. */
export function mintToken(secret: string): string {
  const nonce = crypto.randomBytes(18).toString('base64url');
  return `${nonce}.${hmac(secret, nonce)}`;
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/** `nonce.mac`, the MAC being that nonce's under the secret; a missing or extra part is refused. */
function tokenValid(secret: string, token: string): boolean {
  const [nonce, mac, extra] = token.split('.');
  return mac !== undefined && extra === undefined && safeEqual(hmac(secret, nonce!), mac);
}

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
    if (typeof header !== 'string' || header.length === 0 || !cookie) {
      throw new AppError(403, 'csrf', 'CSRF token missing: fetch /api/csrf-token and send it as x-csrf-token');
    }
    const unsigned = req.unsignCookie(cookie);
    if (!unsigned.valid || !safeEqual(unsigned.value, header) || !tokenValid(secret, header)) {
      throw new AppError(403, 'csrf', 'CSRF token stale or invalid: fetch a new one from /api/csrf-token');
    }
  });
}
