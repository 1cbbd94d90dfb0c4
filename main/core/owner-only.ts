import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { clientAddress } from './connection-cap.js';
import { AppError } from './errors.js';

/**
 * The PC's disk and ports are the owner's (DESIGN rule 12, issue 37): the settings that name a place
 * on the PC or how the app listens, and the imports from its folders, are changed only from the PC
 * itself or with a passcode session, even while no passcode is set (a narrowing of the specs' open
 * gate, written down in docs/energy-settings-api.md and docs/recordings-api.md).
 */
export const OWNER_ONLY_REASON = 'change this from the PC itself, or set a passcode and unlock';

/**
 * Whether the request comes from the PC itself: a connection from 127.0.0.1 or ::1 (the tray
 * windows, a browser on the PC). The rest of 127.0.0.0/8 is not the PC's own address for this.
 */
export function fromThisPc(req: Pick<FastifyRequest, 'socket'>): boolean {
  const address = clientAddress(req.socket?.remoteAddress);
  return address === '127.0.0.1' || address === '::1';
}

/** The owner: a request from the PC itself, or one carrying a live passcode session. */
export function isOwnerRequest(req: FastifyRequest, hasSession: (req: FastifyRequest) => boolean): boolean {
  return fromThisPc(req) || hasSession(req);
}

/** 403 `owner_only` with the plain reason, naming the field (in words when `label` is given). */
export function ownerOnlyError(field?: string, label?: string): AppError {
  const reason = field || label ? `${label ?? field}: ${OWNER_ONLY_REASON}` : `${OWNER_ONLY_REASON[0]!.toUpperCase()}${OWNER_ONLY_REASON.slice(1)}`;
  return new AppError(403, 'owner_only', reason, field ? { field } : {});
}

/** A preHandler letting only the owner through (403 `owner_only` for anyone else). */
export function requireOwner(hasSession: (req: FastifyRequest) => boolean): preHandlerAsyncHookHandler {
  return async (req) => {
    if (!isOwnerRequest(req, hasSession)) throw ownerOnlyError();
  };
}
