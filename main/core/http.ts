import { createRequire } from 'node:module';
import type net from 'node:net';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ZodError } from 'zod';
import { capConnectionsPerAddress, MAX_CONNECTIONS_PER_ADDRESS } from './connection-cap.js';
import { clientAddress } from './connection-cap.js';
import { AppError, errorBody, isStorageFull, storageFull } from './errors.js';
import { sendNotFound } from './not-found.js';
import { registerHostCheck, type HostCheckOptions } from './host-check.js';
import type { Logger } from './logger.js';
import { PortInUseError, type PortOwner } from './startup.js';
import { zodToAppError } from './validate.js';

export interface HttpServerOptions {
  logger: Logger;
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
  /** DNS-rebinding defence (see host-check.ts): every service passes its allowed-hosts setting. */
  hostCheck?: HostCheckOptions;
  /** Status of a body over `bodyLimit`: 400 (default) or 413 (the recording sync API documents 413). */
  bodyTooLargeStatus?: 400 | 413;
  /**
   * Registers the headers every answer carries (helmet's CSP and friends, X-Robots-Tag). It runs
   * before the host check, so a 403 `forbidden_host` / `forbidden_origin` carries them too.
   */
  headers?: (app: FastifyInstance) => Promise<void>;
  /** Most connections one client address may hold open (default MAX_CONNECTIONS_PER_ADDRESS). */
  maxConnectionsPerAddress?: number;
  /** The service's name on the friendly 404 page a browser gets for an unknown path. */
  appName?: string;
  /**
   * How long a request's headers, and then the whole request with its body, may take to arrive
   * (default REQUEST_TIMEOUT_MS); past it the client gets 408 and the connection is closed. Tests
   * pass a short one.
   */
  requestTimeoutMs?: number;
  /** Extra fastify options (tests rarely need them). */
  fastify?: Partial<FastifyServerOptions>;
}

/**
 * The fastify factory both services use: JSON error bodies `{ error: { code, message } }`, bad
 * input as 400 naming the field, never a stack trace, unknown routes as a JSON 404 (a browser
 * navigation outside /api/ gets a friendly HTML page instead: see not-found.ts).
 */
export function createHttpServer(opts: HttpServerOptions): FastifyInstance {
  const timeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    // Request lines stay out of the log (level warn for fastify's own messages); errors are logged below.
    loggerInstance: opts.logger.child({ component: 'http' }, { level: opts.logger.isLevelEnabled('warn') ? 'warn' : 'silent' }),
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    forceCloseConnections: true,
    // Node answers a request whose headers or body are not in by then with a clientError (below).
    requestTimeout: timeout,
    http: { headersTimeout: timeout, requestTimeout: timeout, connectionsCheckingInterval: checkingInterval(timeout) },
    clientErrorHandler: clientErrorHandler(opts.logger.child({ component: 'http' }), timeout),
    schemaController: { compilersFactory: schemaCompilersOnFirstUse },
    ...opts.fastify,
  }) as unknown as FastifyInstance;

  capConnectionsPerAddress(app.server, { max: opts.maxConnectionsPerAddress ?? MAX_CONNECTIONS_PER_ADDRESS, logger: opts.logger.child({ component: 'http' }) });
  // Queued in this order (avvio loads plugins in registration order): headers first, then the host check.
  const headers = opts.headers;
  if (headers) void app.register(atRoot(async (root) => headers(root)));
  const hostCheck = opts.hostCheck;
  if (hostCheck) void app.register(atRoot(async (root) => registerHostCheck(root, hostCheck)));
  app.setErrorHandler((err, req, reply) => {
    const appErr = toAppError(err, opts.bodyTooLargeStatus);
    // A refusal we planned (AppError) is one line without a stack; anything else is logged in full.
    if (appErr.status >= 500 && !appErr.quiet) {
      if (err instanceof AppError || appErr.code === 'storage_full') req.log.warn({ code: appErr.code, status: appErr.status, url: req.url.split('?')[0] }, appErr.message);
      else req.log.error({ err }, 'request failed');
    }
    if (appErr.headers) reply.headers(appErr.headers);
    void reply.status(appErr.status).send(errorBody(appErr));
  });
  app.setNotFoundHandler((req, reply) => {
    sendNotFound(req, reply, opts.appName ?? 'Home LAN Bridge');
  });
  return app;
}

/** Every request's headers, and then its body, must have arrived within this (issue 37). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** How often node looks for requests past their time: a small part of it, so a refusal is on time. */
function checkingInterval(timeout: number): number {
  return Math.max(10, Math.min(1000, Math.floor(timeout / 10)));
}

/**
 * Node's `clientError` (a request that did not arrive in time, headers too large, bytes that are
 * not HTTP): one log line, the status in the project's JSON error body, and the connection closed.
 */
function clientErrorHandler(log: Logger, timeout: number) {
  return function onClientError(err: Error & { code?: string }, socket: net.Socket): void {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    let appErr: AppError;
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      appErr = new AppError(408, 'request_timeout', `The request did not arrive in full within ${Math.round(timeout / 1000)} s: the connection is closed; send it again.`);
      log.warn({ client: clientAddress(socket.remoteAddress) }, `request not complete within ${timeout} ms: answered 408 and closed the connection`);
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      appErr = new AppError(431, 'headers_too_large', 'The request headers are too large.');
    } else {
      appErr = new AppError(400, 'bad_request', 'The request is not valid HTTP.');
    }
    if (socket.writable) {
      const body = JSON.stringify(errorBody(appErr));
      const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[appErr.status as 400 | 408 | 431];
      socket.write(`HTTP/1.1 ${appErr.status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    }
    socket.destroy();
  };
}

const requireHere = createRequire(import.meta.url);

/**
 * Routes here validate with zod, so fastify's JSON-schema compilers (ajv and fast-json-stringify,
 * about a fifth of the start's code) load only for a route that declares a JSON `schema`: none
 * does today. Fastify's default builds both for every instance at creation.
 */
const schemaCompilersOnFirstUse = {
  buildValidator: (...args: unknown[]) => (requireHere('@fastify/ajv-compiler') as () => (...a: unknown[]) => unknown)()(...args),
  buildSerializer: (...args: unknown[]) => (requireHere('@fastify/fast-json-stringify-compiler') as () => (...a: unknown[]) => unknown)()(...args),
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

export function toAppError(err: unknown, bodyTooLargeStatus: 400 | 413 = 400): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return zodToAppError(err, 'body');
  if (isStorageFull(err)) return storageFull();
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError(bodyTooLargeStatus, 'body_too_large', 'Request body is too large');
  if (e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || (e.statusCode === 400 && e.message)) {
    return new AppError(400, 'invalid', e.message ?? 'Bad request');
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.statusCode, e.code ? String(e.code).toLowerCase() : 'bad_request', e.message ?? 'Bad request');
  }
  return new AppError(500, 'internal', e.message || 'Internal error');
}

/** Marks a plugin as not encapsulated (what fastify-plugin does): its hooks apply to the whole server. */
function atRoot(plugin: (app: FastifyInstance) => Promise<void>) {
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}

/** Listens and resolves to the bound port (0 picks a free one); a taken port is a `PortInUseError`. */
export async function listen(app: FastifyInstance, port: number, host: string, owner?: PortOwner): Promise<number> {
  try {
    await app.listen({ port, host });
  } catch (err) {
    if ((err as { code?: string }).code === 'EADDRINUSE') throw new PortInUseError(port, host, owner);
    throw err;
  }
  const addr = app.server.address();
  return typeof addr === 'object' && addr ? addr.port : port;
}
