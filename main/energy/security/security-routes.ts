import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { clearedSessionCookie, sessionCookie, type OwnerGate } from '../../core/owner-gate.js';
import { parseInput } from '../../core/validate.js';
import { bearerToken, type Security } from './gate.js';

const passcodeBody = z.object({ passcode: z.string().regex(/^\d{4}$/, 'must be exactly 4 digits') }).strict();

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * POST /api/unlock, POST /api/lock, POST and DELETE /api/security/passcode.
 * The passcode and its hash are never logged or returned.
 */
export function registerSecurityRoutes(app: FastifyInstance, security: Security, logger: Logger): void {
  registerUnlockRoutes(app, security, logger);
  registerPasscodeRoutes(app, security, logger);
}

/** POST (set or change) and DELETE (clear) /api/security/passcode, both behind the gate. */
function registerPasscodeRoutes(app: FastifyInstance, security: Security, logger: Logger): void {
  const { passcodes, sessions } = security;

  app.post('/api/security/passcode', { preHandler: security.requireSession }, async (req, reply) => {
    const { passcode } = parseInput(passcodeBody, req.body, 'body');
    await passcodes.set(passcode);
    // A new passcode ends every other session; the caller gets a fresh one so it stays unlocked.
    sessions.revokeAll();
    const session = sessions.issue();
    void reply.header('set-cookie', sessionCookie(session.token));
    logger.info('settings passcode set');
    return { passcodeSet: true, token: session.token, expiresAt: iso(session.expiresAt) };
  });

  app.delete('/api/security/passcode', { preHandler: security.requireSession }, async (_req, reply) => {
    passcodes.clear();
    sessions.revokeAll();
    void reply.header('set-cookie', clearedSessionCookie());
    logger.info('settings passcode cleared; the gate is open');
    return { passcodeSet: false };
  });
}

/**
 * The bridge's passcode gate offered to the other service (the composition root passes it to the
 * recording sync): the same passcode, sessions, lockout and cookie, so one unlock serves both.
 */
export function ownerGateOf(security: () => Security, logger: Logger): OwnerGate {
  return {
    passcodeSet: () => security().passcodes.isSet,
    hasSession: (req) => security().hasSession(req),
    registerSessionRoutes: (app) => registerSecurityRoutes(app, security(), logger),
  };
}

/**
 * POST /api/unlock and POST /api/lock. A successful unlock answers the token (for an
 * `Authorization: Bearer` header) and sets it as the session cookie, which the browser also sends
 * to the other service's port on the same host.
 */
function registerUnlockRoutes(app: FastifyInstance, security: Security, logger: Logger): void {
  const { passcodes, sessions, lockout } = security;

  app.post('/api/unlock', async (req, reply) => {
    const address = req.ip;
    const lockedMs = lockout.lockedFor(address);
    if (lockedMs > 0) throw lockedOut(lockedMs);
    const { passcode } = parseInput(passcodeBody, req.body, 'body');
    if (!passcodes.isSet) throw new AppError(409, 'no_passcode', 'No passcode is set: the settings are open.');
    if (passcodes.damaged) {
      throw new AppError(503, 'passcode_unreadable', 'The stored passcode is damaged, so no passcode can unlock the settings. On the bridge computer: stop the bridge, delete energy/security.json in its data folder (a copy was kept beside it) and start it again, then set a new passcode.');
    }
    // The guess is reserved before the slow hash, so a burst of concurrent guesses cannot get more
    // than the allowed tries evaluated.
    const reservation = lockout.reserve(address);
    if (!reservation.ok) {
      if (reservation.reason === 'locked') throw lockedOut(reservation.retryAfterMs);
      throw new AppError(429, 'locked_out', 'Too many passcode attempts at once from this address; wait for the answers and try again.', {
        headers: { 'retry-after': '1' },
        extra: { retryAfterSeconds: 1 },
      });
    }
    let correct: boolean;
    try {
      correct = await passcodes.verify(passcode);
    } catch (err) {
      // A failed hash counts as a wrong guess: a reservation is never given back unused.
      reservation.settle(false);
      throw err;
    }
    const attempt = reservation.settle(correct);
    if (correct) {
      const session = sessions.issue();
      void reply.header('set-cookie', sessionCookie(session.token));
      return { token: session.token, expiresAt: iso(session.expiresAt) };
    }
    if (!attempt || attempt.locked) {
      logger.warn({ address }, 'too many wrong passcodes; unlock locked out for this address');
      throw lockedOut(attempt?.locked ? attempt.retryAfterMs : lockout.lockedFor(address));
    }
    throw new AppError(401, 'bad_passcode', `Wrong passcode; ${attempt.triesLeft} ${attempt.triesLeft === 1 ? 'try' : 'tries'} left before a one-minute lockout.`, {
      extra: { triesLeft: attempt.triesLeft },
    });
  });

  app.post('/api/lock', async (req, reply) => {
    sessions.revoke(bearerToken(req));
    void reply.header('set-cookie', clearedSessionCookie());
    return { locked: true };
  });
}

function lockedOut(ms: number): AppError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new AppError(429, 'locked_out', `Too many wrong passcodes; try again in ${seconds} s.`, {
    headers: { 'retry-after': String(seconds) },
    extra: { retryAfterSeconds: seconds },
  });
}
