import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { lockedError, sessionToken } from '../../core/owner-gate.js';
import { Lockout } from './lockout.js';
import { createPasscodeStore, type PasscodeStore } from './passcode-store.js';
import { Sessions } from './sessions.js';

/** The optional passcode gate: the stored hash, in-memory sessions and the per-address lockout. */
export interface Security {
  readonly passcodes: PasscodeStore;
  readonly sessions: Sessions;
  readonly lockout: Lockout;
  /** True when no passcode is set (the gate is open) or the request carries a valid session token. */
  isUnlocked(req: FastifyRequest): boolean;
  /** True only when the request carries a valid session token (Bearer header or the session cookie). */
  hasSession(req: FastifyRequest): boolean;
  /**
   * The gate as a fastify preHandler: passes when no passcode is set, else needs a live session
   * (`Authorization: Bearer <token>` or the session cookie); otherwise 401 `locked`.
   * Reuse it on every gated route: `app.post(path, { preHandler: security.requireSession }, handler)`.
   */
  readonly requireSession: preHandlerAsyncHookHandler;
}

/** The session token a request carries (Bearer header, else the shared session cookie), or null. */
export const bearerToken = sessionToken;

export { lockedError };

export function createSecurity(opts: { file: string; clock: Clock; logger: Logger }): Security {
  const passcodes = createPasscodeStore({ file: opts.file, logger: opts.logger });
  const sessions = new Sessions(opts.clock);
  const lockout = new Lockout(opts.clock);
  const hasSession = (req: FastifyRequest) => sessions.valid(bearerToken(req));
  return {
    passcodes,
    sessions,
    lockout,
    hasSession,
    isUnlocked: (req) => !passcodes.isSet || hasSession(req),
    async requireSession(req) {
      if (passcodes.isSet && !hasSession(req)) throw lockedError();
    },
  };
}
