import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpServer } from './http.js';
import { AppError, invalid } from './errors.js';
import { silentLogger } from './logger.js';
import { parseInput } from './validate.js';

describe('http error bodies', () => {
  const app = createHttpServer({ logger: silentLogger, bodyLimit: 1024 });
  app.get('/bad', async (req) => parseInput(z.object({ n: z.coerce.number().int().min(1) }).strict(), req.query, 'query'));
  app.get('/boom', async () => {
    throw new Error('disk on fire');
  });
  app.get('/locked', async () => {
    throw new AppError(429, 'locked_out', 'Try later', { headers: { 'retry-after': '60' } });
  });
  app.post('/echo', async (req) => req.body);
  app.get('/field', async () => {
    throw invalid('limit', 'must be 1 to 20000');
  });
  // No route here declares a JSON schema; fastify's compilers load on the first one that does.
  app.post('/schema', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } }, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, async (req) => ({ ...(req.body as object), secret: 'not serialised' }));

  it('turns bad input into a 400 naming the field', async () => {
    const res = await app.inject('/bad?n=0');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid', field: 'n' });
    const unknown = await app.inject('/bad?n=2&x=1');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain('"x"');
  });

  it('still validates and serialises a route that declares a JSON schema', async () => {
    const bad = await app.inject({ method: 'POST', url: '/schema', payload: { n: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid');
    expect(bad.json().error.message).toContain('>= 1');
    const ok = await app.inject({ method: 'POST', url: '/schema', payload: { n: 3 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ n: 3 });
  });

  it('never returns a stack trace for an unhandled error', async () => {
    const res = await app.inject('/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'internal', message: 'disk on fire' } });
    expect(res.body).not.toContain('at ');
  });

  it('carries headers of an AppError and answers unknown routes with JSON 404', async () => {
    const res = await app.inject('/locked');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
    const missing = await app.inject('/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
  });

  it('rejects an oversized body with a 400', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { x: 'y'.repeat(5000) } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('body_too_large');
    const field = await app.inject('/field');
    expect(field.json().error).toEqual({ code: 'invalid', field: 'limit', message: 'limit: must be 1 to 20000' });
  });
});
