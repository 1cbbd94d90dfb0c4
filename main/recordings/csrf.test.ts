import cookie from '@fastify/cookie';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpServer } from '../core/http.js';
import { silentLogger } from '../core/logger.js';
import { CSRF_SECRET_FILE, DEV_CSRF_SECRET, loadOrCreateCsrfSecret, mintToken, registerCsrf, resolveCsrfSecret } from './csrf.js';

// spec/recording-sync.md: state-changing requests carry a CSRF token fetched from
// GET /api/csrf-token (header x-csrf-token, double-submitted in the rs_csrf cookie); a missing or
// invalid token is 403 `csrf`. The secret is never a constant from the source.
const SECRET = 'a'.repeat(40);

async function app(secret = SECRET) {
  const a = createHttpServer({ logger: silentLogger });
  await a.register(cookie, { secret });
  registerCsrf(a, secret);
  a.get('/api/thing', async () => ({ read: true }));
  a.post('/api/thing', async () => ({ changed: true }));
  a.put('/api/thing', async () => ({ changed: true }));
  a.patch('/api/thing', async () => ({ changed: true }));
  a.delete('/api/thing', async () => ({ changed: true }));
  await a.ready();
  return a;
}

async function fetchToken(a: Awaited<ReturnType<typeof app>>) {
  const res = await a.inject({ method: 'GET', url: '/api/csrf-token' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  const set = res.cookies.find((c) => c.name === 'rs_csrf');
  expect(set).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  // Plain HTTP on the LAN: a Secure cookie would never come back, and every change would be refused.
  expect(String(res.headers['set-cookie'])).not.toMatch(/secure/i);
  return { token: (res.json() as { token: string }).token, cookie: set!.value };
}

describe('CSRF double-submit cookie', () => {
  it('every unsafe method needs the token in the header and the cookie; reads do not', async () => {
    const a = await app();
    const { token, cookie: c } = await fetchToken(a);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const missing = await a.inject({ method, url: '/api/thing' });
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toEqual({ error: { code: 'csrf', message: expect.stringContaining('/api/csrf-token') } });
      const ok = await a.inject({ method, url: '/api/thing', headers: { 'x-csrf-token': token }, cookies: { rs_csrf: c } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ changed: true });
    }
    expect((await a.inject({ method: 'GET', url: '/api/thing' })).statusCode).toBe(200);
    await a.close();
  });

  it('refuses a header without the cookie, the cookie without the header, an empty header', async () => {
    const a = await app();
    const { token, cookie: c } = await fetchToken(a);
    expect((await a.inject({ method: 'POST', url: '/api/thing', headers: { 'x-csrf-token': token } })).statusCode).toBe(403);
    expect((await a.inject({ method: 'POST', url: '/api/thing', cookies: { rs_csrf: c } })).statusCode).toBe(403);
    const empty = await a.inject({ method: 'POST', url: '/api/thing', headers: { 'x-csrf-token': '' }, cookies: { rs_csrf: c } });
    expect(empty.statusCode).toBe(403);
    expect(empty.json().error.message).toContain('CSRF token missing');
    await a.close();
  });

  it('refuses a header that differs from the cookie, an unsigned cookie, and a token under another secret', async () => {
    const a = await app();
    const one = await fetchToken(a);
    const two = await fetchToken(a);
    expect(one.token).not.toBe(two.token);
    const mismatch = await a.inject({ method: 'POST', url: '/api/thing', headers: { 'x-csrf-token': two.token }, cookies: { rs_csrf: one.cookie } });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json()).toEqual({ error: { code: 'csrf', message: expect.stringContaining('stale or invalid') } });
    // The raw token as a cookie, without the cookie signature.
    expect((await a.inject({ method: 'POST', url: '/api/thing', headers: { 'x-csrf-token': one.token }, cookies: { rs_csrf: one.token } })).statusCode).toBe(403);
    // Signed cookie and header agree, but the token's MAC was made with another secret.
    const foreign = mintToken('b'.repeat(40));
    const signed = a.signCookie(foreign);
    expect((await a.inject({ method: 'POST', url: '/api/thing', headers: { 'x-csrf-token': foreign }, cookies: { rs_csrf: signed } })).statusCode).toBe(403);
    // A token with an extra segment, a tampered MAC, a missing part, no dot at all, and one
    // token's MAC moved onto the other's nonce (the MAC binds its nonce).
    const [nonce1, mac1] = one.token.split('.');
    const [nonce2] = two.token.split('.');
    for (const bad of [`${one.token}.x`, `${nonce1}.AAAA`, `.${mac1}`, `${nonce1}.`, `${nonce1}${mac1}`, `${nonce2}.${mac1}`]) {
      const res = await a.inject({ method: 'POST', url: '/api/thing', headers: { 'x-csrf-token': bad }, cookies: { rs_csrf: a.signCookie(bad) } });
      expect(res.statusCode, bad).toBe(403);
      expect(res.json(), bad).toEqual({ error: { code: 'csrf', message: expect.stringContaining('stale or invalid') } });
    }
    await a.close();
  });

  it('a token from before a secret rotation is refused; refetching works', async () => {
    const before = await app('c'.repeat(40));
    const old = await fetchToken(before);
    await before.close();
    const after = await app('d'.repeat(40));
    expect((await after.inject({ method: 'POST', url: '/api/thing', headers: { 'x-csrf-token': old.token }, cookies: { rs_csrf: old.cookie } })).statusCode).toBe(403);
    const fresh = await after.inject({ method: 'GET', url: '/api/csrf-token', cookies: { rs_csrf: old.cookie } });
    const token = (fresh.json() as { token: string }).token;
    const c = fresh.cookies.find((x) => x.name === 'rs_csrf')!.value;
    expect((await after.inject({ method: 'POST', url: '/api/thing', headers: { 'x-csrf-token': token }, cookies: { rs_csrf: c } })).statusCode).toBe(200);
    await after.close();
  });
});

describe('CSRF secret', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csrf-secret-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a configured secret of 32+ characters is used as is', () => {
    expect(resolveCsrfSecret('x'.repeat(32), true, dir)).toEqual({ secret: 'x'.repeat(32), source: 'configured' });
    expect(fs.existsSync(path.join(dir, CSRF_SECRET_FILE))).toBe(false);
  });

  it('refuses the development placeholder and a short secret, in every mode', () => {
    for (const production of [true, false]) {
      expect(() => resolveCsrfSecret(DEV_CSRF_SECRET, production, dir)).toThrow(/development placeholder/);
      expect(() => resolveCsrfSecret('x'.repeat(31), production, dir)).toThrow(/too short/);
    }
    expect(() => resolveCsrfSecret('x'.repeat(31), true, dir)).toThrow('CSRF_SECRET is too short: use 32 or more random bytes (NODE_ENV=production)');
    expect(() => resolveCsrfSecret('x'.repeat(31), false, dir)).toThrow(/^CSRF_SECRET is too short: use 32 or more random bytes$/);
  });

  it('without one, generates 32 random bytes once, stores them 0600 and reuses them', () => {
    const first = resolveCsrfSecret(undefined, true, dir);
    expect(first.source).toBe('generated');
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, CSRF_SECRET_FILE);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${first.secret}\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveCsrfSecret('', true, dir)).toEqual({ secret: first.secret, source: 'stored' });
    expect(fs.readdirSync(dir)).toEqual([CSRF_SECRET_FILE]);
  });

  it('tightens a stored file readable by others, replaces garbage or a truncated secret, drops a stale temp file', () => {
    const file = path.join(dir, CSRF_SECRET_FILE);
    const good = 'Z'.repeat(43);
    fs.writeFileSync(file, `${good}\n`, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(loadOrCreateCsrfSecret(dir)).toEqual({ secret: good, source: 'stored' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    for (const bad of ['Z'.repeat(42), 'not a secret at all, has spaces and is long enough!!', `${'Z'.repeat(43)}!`, 'Z'.repeat(513)]) {
      fs.writeFileSync(file, bad);
      const next = loadOrCreateCsrfSecret(dir);
      expect(next.source, bad).toBe('generated');
      expect(next.secret).not.toBe(bad);
    }
    fs.writeFileSync(path.join(dir, 'csrf-secret.1234.tmp'), 'half');
    fs.writeFileSync(path.join(dir, 'csrf-secret.other'), 'kept');
    fs.writeFileSync(path.join(dir, 'old-csrf-secret.1.tmp'), 'kept');
    fs.writeFileSync(path.join(dir, 'csrf-secret.1.tmp.bak'), 'kept');
    loadOrCreateCsrfSecret(dir);
    expect(fs.readdirSync(dir).sort()).toEqual([CSRF_SECRET_FILE, 'csrf-secret.1.tmp.bak', 'csrf-secret.other', 'old-csrf-secret.1.tmp']);
  });

  it('creates the data folder when it does not exist yet', () => {
    const nested = path.join(dir, 'a', 'b');
    expect(loadOrCreateCsrfSecret(nested).source).toBe('generated');
    expect(fs.existsSync(path.join(nested, CSRF_SECRET_FILE))).toBe(true);
  });
});
