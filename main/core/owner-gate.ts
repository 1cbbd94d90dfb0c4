import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * One owner for both services: the energy bridge's passcode also gates every state-changing route
 * of the recording sync. The composition root hands the recording service this gate (built from
 * the bridge's passcode store and session list), so one unlock serves both ports: the session
 * cookie is per host, not per port (browsers send a cookie to every port of the host that set it).
 * A service given no gate trusts the LAN, as without a passcode.
 */
export interface OwnerGate {
  /** Whether a passcode is set: without one every write passes (the LAN is trusted). */
  passcodeSet(): boolean;
  /** Whether the request carries a live session: the shared cookie or `Authorization: Bearer`. */
  hasSession(req: FastifyRequest): boolean;
  /**
   * Registers `POST /api/unlock`, `POST /api/lock` and `POST`/`DELETE /api/security/passcode` on
   * another service's server: the same passcode, per-address lockout, session list and cookie as
   * the bridge's own (so that service's setup can offer to set the passcode too).
   */
  registerSessionRoutes(app: FastifyInstance): void;
}

/** Name of the cookie that carries the owner's session to both ports (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'hlb_session';

/** The session token a request carries: `Authorization: Bearer <token>`, else the session cookie. */
export function sessionToken(req: Pick<FastifyRequest, 'headers'>): string | null {
  const header = req.headers.authorization;
  if (typeof header === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (m) return m[1]!;
  }
  return cookieValue(req.headers.cookie, SESSION_COOKIE);
}

/** One cookie's value from a `Cookie` header (no plugin needed: the bridge does not parse cookies otherwise). */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      const v = part.slice(i + 1).trim();
      return /^[A-Za-z0-9_-]{1,200}$/.test(v) ? v : null;
    }
  }
  return null;
}

/**
 * `Set-Cookie` for a session: HttpOnly, SameSite=Strict, every path; a browser-session cookie (no
 * Max-Age: the server decides when the session ends, on its own clock, and forgets it on restart).
 */
export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

/** `Set-Cookie` that removes the session cookie. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}

export function lockedError(): AppError {
  return new AppError(401, 'locked', 'Locked: unlock with the passcode (POST /api/unlock on either service) and send the token as "Authorization: Bearer <token>", or keep the session cookie it sets.');
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The routes that open and close a session stay open, or nobody could unlock. */
const UNGATED = new Set(['/api/unlock', '/api/lock']);

/**
 * Gates every state-changing route of `app` behind `gate` (a preHandler for the whole server,
 * registered once; routes need nothing of their own): 401 `locked` while a passcode is set and the
 * request has no session. `GET /api/session` tells a page whether it is locked.
 * (`/api/security/passcode` is gated too: with a passcode set, changing it needs a session.)
 */
export function registerOwnerGate(app: FastifyInstance, gate: OwnerGate | undefined): void {
  app.get('/api/session', async (req, reply) => {
    void reply.header('cache-control', 'no-store');
    const passcodeSet = gate?.passcodeSet() ?? false;
    // `passcodeAvailable`: whether this service offers the owner's passcode (false when it runs alone).
    return { passcodeSet, unlocked: !passcodeSet || (gate?.hasSession(req) ?? true), passcodeAvailable: gate !== undefined };
  });
  if (!gate) return;
  gate.registerSessionRoutes(app);
  app.addHook('preHandler', async (req) => {
    if (!STATE_CHANGING.has(req.method.toUpperCase())) return;
    if (UNGATED.has(req.routeOptions.url ?? '')) return;
    if (gate.passcodeSet() && !gate.hasSession(req)) throw lockedError();
  });
}
