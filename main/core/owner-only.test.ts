import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, listen } from './http.js';
import { silentLogger } from './logger.js';
import { requireOwner } from './owner-only.js';
import { requestFrom } from './testing/request-from.js';

/**
 * Who is the PC itself, over real sockets: a connection from 127.0.0.1 or ::1 (also as the
 * IPv4-mapped ::ffff:127.0.0.1 of a dual-stack listener); any other address, 127.0.0.2 included,
 * is another device unless it carries a session.
 */
describe('the owner is the PC itself or a session', () => {
  let app: FastifyInstance;
  let port = 0;
  beforeAll(async () => {
    app = createHttpServer({ logger: silentLogger });
    app.post('/owned', { preHandler: requireOwner((req) => req.headers.authorization === 'Bearer live') }, async () => ({ ok: true }));
    port = await listen(app, 0, '::');
  });
  afterAll(async () => app.close());

  const post = (from: string, host: string, headers?: Record<string, string>) => requestFrom(from, `http://${host}:${port}/owned`, { method: 'POST', body: {}, headers });

  it('127.0.0.1, ::ffff:127.0.0.1 (dual stack) and ::1 pass', async () => {
    expect((await post('127.0.0.1', '127.0.0.1')).status).toBe(200);
    expect((await post('::1', '[::1]')).status).toBe(200);
  });

  it('127.0.0.2 and 127.0.0.3 are other devices: 403 with the plain reason; a session lets them through', async () => {
    for (const from of ['127.0.0.2', '127.0.0.3']) {
      const res = await post(from, '127.0.0.1');
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({ code: 'owner_only', message: 'Change this from the PC itself, or set a passcode and unlock' });
    }
    expect((await post('127.0.0.2', '127.0.0.1', { authorization: 'Bearer live' })).status).toBe(200);
    expect((await post('127.0.0.2', '127.0.0.1', { authorization: 'Bearer stale' })).status).toBe(403);
  });
});
