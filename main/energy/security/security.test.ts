import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyService } from '../index.js';

const dirs: string[] = [];
const services: EnergyService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function start(dataDir?: string) {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'energy-security-'));
  if (!dataDir) dirs.push(dir);
  const clock = createManualClock();
  // A loopback gateway address with nothing listening: the poller fails harmlessly; nothing leaves loopback.
  const service = createEnergyService({ dataDir: dir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' } }, { logger: silentLogger, clock });
  await service.start();
  services.push(service);
  const app = service.app;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, opts: { body?: unknown; token?: string; from?: string } = {}) =>
    app.inject({
      method,
      url,
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
      headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
      remoteAddress: opts.from ?? '127.0.0.1',
    });
  return { service, clock, call, dir, securityFile: path.join(dir, 'energy', 'security.json') };
}

const HOUR = 3_600_000;

describe('passcode gate: every transition of the state table', () => {
  it('no passcode set: the gate is open, and setting the first passcode stores only a salted hash', async () => {
    const { call, securityFile } = await start();
    const open = await call('GET', '/api/settings');
    expect(open.json()).toMatchObject({ passcodeSet: false, unlocked: true, gateway: { host: '127.0.0.5' } });
    expect((await call('PUT', '/api/settings', { body: { battery: { capacityKwh: 13.5 } } })).statusCode).toBe(200);

    const set = await call('POST', '/api/security/passcode', { body: { passcode: '2468' } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ passcodeSet: true, token: expect.any(String), expiresAt: '2026-01-01T12:00:00.000Z' });
    const stored = fs.readFileSync(securityFile, 'utf8');
    expect(stored).not.toContain('2468');
    expect(JSON.parse(stored).passcode).toMatchObject({ algorithm: 'scrypt', salt: expect.any(String), hash: expect.any(String) });
    const settingsBody = (await call('GET', '/api/settings', { token: set.json().token })).body;
    expect(settingsBody).not.toContain(JSON.parse(stored).passcode.hash);
    expect(JSON.parse(settingsBody)).toMatchObject({ passcodeSet: true, unlocked: true });
  });

  it('passcode set: gated routes answer 401 locked without a valid token, reads stay open and blank the secrets', async () => {
    const { call } = await start();
    await call('PUT', '/api/settings', { body: { alerts: [{ id: 'low', name: 'Low battery', webhookUrl: 'http://127.0.0.1:9/hook' }] } });
    const { token } = (await call('POST', '/api/security/passcode', { body: { passcode: '2468' } })).json();

    for (const [method, url, body] of [
      ['PUT', '/api/settings', { battery: { capacityKwh: 10 } }],
      ['POST', '/api/settings/reset', {}],
      ['POST', '/api/security/passcode', { passcode: '1111' }],
      ['DELETE', '/api/security/passcode', undefined],
      ['POST', '/api/test/gateway', { host: '127.0.0.1' }],
      ['POST', '/api/discover/gateway', {}],
    ] as const) {
      for (const t of [undefined, 'not-a-token']) {
        const res = await call(method, url, { body, token: t });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().error.code).toBe('locked');
      }
    }

    const locked = (await call('GET', '/api/settings')).json();
    expect(locked).toMatchObject({ passcodeSet: true, unlocked: false, gateway: { host: '' }, homekit: { pin: '' } });
    expect(locked.alerts[0]).toMatchObject({ id: 'low', name: 'Low battery', webhookUrl: '' });
    const unlocked = (await call('GET', '/api/settings', { token })).json();
    expect(unlocked.unlocked).toBe(true);
    expect(unlocked.gateway.host).toBe('127.0.0.5');
    expect(unlocked.homekit.pin).toMatch(/^\d{3}-\d{2}-\d{3}$/);
    expect(unlocked.alerts[0].webhookUrl).toBe('http://127.0.0.1:9/hook');
    // Reads need no token at all.
    for (const url of ['/api/state', '/api/snapshot', '/api/settings/schema']) expect((await call('GET', url)).statusCode).toBe(200);
  });

  it('locked → unlocked: the right passcode returns a token valid 12 hours, which opens the gated routes', async () => {
    const { call, clock } = await start();
    await call('POST', '/api/security/passcode', { body: { passcode: '2468' } });
    const res = await call('POST', '/api/unlock', { body: { passcode: '2468' } });
    expect(res.statusCode).toBe(200);
    const { token, expiresAt } = res.json();
    expect(Date.parse(expiresAt)).toBe(clock.now() + 12 * HOUR);
    expect((await call('PUT', '/api/settings', { body: { gateway: { port: 1502 } }, token })).statusCode).toBe(200);
  });

  it('unlocked → locked when the token reaches 12 hours', async () => {
    const { call, clock } = await start();
    await call('POST', '/api/security/passcode', { body: { passcode: '2468' } });
    const { token } = (await call('POST', '/api/unlock', { body: { passcode: '2468' } })).json();
    clock.advance(12 * HOUR - 1);
    expect((await call('PUT', '/api/settings', { body: {}, token })).statusCode).toBe(200);
    clock.advance(1);
    const expired = await call('PUT', '/api/settings', { body: {}, token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('locked');
    expect((await call('GET', '/api/settings', { token })).json()).toMatchObject({ unlocked: false, gateway: { host: '' } });
  });

  it('unlocked → locked on POST /api/lock: that token is revoked, others stay', async () => {
    const { call } = await start();
    const first = (await call('POST', '/api/security/passcode', { body: { passcode: '2468' } })).json().token;
    const second = (await call('POST', '/api/unlock', { body: { passcode: '2468' } })).json().token;
    const lock = await call('POST', '/api/lock', { token: second });
    expect(lock.statusCode).toBe(200);
    expect(lock.json()).toEqual({ locked: true });
    expect((await call('PUT', '/api/settings', { body: {}, token: second })).statusCode).toBe(401);
    expect((await call('PUT', '/api/settings', { body: {}, token: first })).statusCode).toBe(200);
  });

  it('locked → lockout on the fifth consecutive wrong try, per client address, lifted after one minute', async () => {
    const { call, clock } = await start();
    await call('POST', '/api/security/passcode', { body: { passcode: '2468' } });
    // A success resets the count.
    for (let i = 0; i < 3; i++) await call('POST', '/api/unlock', { body: { passcode: '0000' } });
    expect((await call('POST', '/api/unlock', { body: { passcode: '2468' } })).statusCode).toBe(200);

    for (const left of [4, 3, 2, 1]) {
      const wrong = await call('POST', '/api/unlock', { body: { passcode: '1357' } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error).toMatchObject({ code: 'bad_passcode', triesLeft: left });
    }
    const fifth = await call('POST', '/api/unlock', { body: { passcode: '1357' } });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error.code).toBe('locked_out');
    expect(fifth.headers['retry-after']).toBe('60');

    // While locked out even the right passcode is refused, with the time left.
    clock.advance(45_000);
    const during = await call('POST', '/api/unlock', { body: { passcode: '2468' } });
    expect(during.statusCode).toBe(429);
    expect(during.headers['retry-after']).toBe('15');
    // Another client on the LAN is not locked out.
    expect((await call('POST', '/api/unlock', { body: { passcode: '2468' }, from: '127.0.0.2' })).statusCode).toBe(200);

    clock.advance(15_000);
    const after = await call('POST', '/api/unlock', { body: { passcode: '1357' } });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.triesLeft).toBe(4);
    expect((await call('POST', '/api/unlock', { body: { passcode: '2468' } })).statusCode).toBe(200);
  });

  it('passcode set → no passcode set with DELETE and a valid token: the gate opens', async () => {
    const { call, securityFile } = await start();
    const { token } = (await call('POST', '/api/security/passcode', { body: { passcode: '2468' } })).json();
    const res = await call('DELETE', '/api/security/passcode', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ passcodeSet: false });
    expect(JSON.parse(fs.readFileSync(securityFile, 'utf8'))).toEqual({ passcode: null });
    expect((await call('GET', '/api/settings')).json()).toMatchObject({ passcodeSet: false, unlocked: true, gateway: { host: '127.0.0.5' } });
    expect((await call('PUT', '/api/settings', { body: {} })).statusCode).toBe(200);
    const unlock = await call('POST', '/api/unlock', { body: { passcode: '2468' } });
    expect(unlock.statusCode).toBe(409);
    expect(unlock.json().error.code).toBe('no_passcode');
  });

  it('changing the passcode needs a session, ends the others and keeps the caller unlocked', async () => {
    const { call } = await start();
    const old = (await call('POST', '/api/security/passcode', { body: { passcode: '2468' } })).json().token;
    const other = (await call('POST', '/api/unlock', { body: { passcode: '2468' } })).json().token;
    const change = await call('POST', '/api/security/passcode', { body: { passcode: '9753' }, token: old });
    expect(change.json()).toMatchObject({ passcodeSet: true, token: expect.any(String) });
    expect((await call('PUT', '/api/settings', { body: {}, token: other })).statusCode).toBe(401);
    expect((await call('PUT', '/api/settings', { body: {}, token: change.json().token })).statusCode).toBe(200);
    expect((await call('POST', '/api/unlock', { body: { passcode: '2468' } })).statusCode).toBe(401);
    expect((await call('POST', '/api/unlock', { body: { passcode: '9753' } })).statusCode).toBe(200);
  });

  it('unlocked → locked on restart: tokens are in memory only, the hash persists', async () => {
    const first = await start();
    const { token } = (await first.call('POST', '/api/security/passcode', { body: { passcode: '2468' } })).json();
    await first.service.stop();
    services.splice(services.indexOf(first.service), 1);
    const second = await start(first.dir);
    expect((await second.call('GET', '/api/settings', { token })).json()).toMatchObject({ passcodeSet: true, unlocked: false });
    expect((await second.call('PUT', '/api/settings', { body: {}, token })).statusCode).toBe(401);
    expect((await second.call('POST', '/api/unlock', { body: { passcode: '2468' } })).statusCode).toBe(200);
  });

  it('rejects passcodes that are not exactly 4 digits with a 400 and leaves the stored hash alone', async () => {
    const { call, securityFile } = await start();
    const { token } = (await call('POST', '/api/security/passcode', { body: { passcode: '2468' } })).json();
    const before = fs.readFileSync(securityFile);
    for (const passcode of ['12a4', '12345', '123', '', 1234, null]) {
      const res = await call('POST', '/api/security/passcode', { body: { passcode }, token });
      expect(res.statusCode, String(passcode)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid', field: 'passcode' });
    }
    expect((await call('POST', '/api/security/passcode', { body: { passcode: '1234', extra: 1 }, token })).statusCode).toBe(400);
    expect(fs.readFileSync(securityFile).equals(before)).toBe(true);
    // A malformed unlock is a 400 and does not count as a wrong try.
    for (let i = 0; i < 6; i++) expect((await call('POST', '/api/unlock', { body: { passcode: '99999' } })).statusCode).toBe(400);
    expect((await call('POST', '/api/unlock', { body: { passcode: '1357' } })).json().error.triesLeft).toBe(4);
  });
});

describe('passcode lockout under concurrency', () => {
  it('200 simultaneous guesses from one client over HTTP: at most 5 are evaluated, and the right code among them (150th) is refused', async () => {
    const { service, call } = await start();
    await call('POST', '/api/security/passcode', { body: { passcode: '2468' } });
    const verify = vi.spyOn(service.security.passcodes, 'verify');
    const guesses = Array.from({ length: 200 }, (_, i) => (i === 149 ? '2468' : String(1000 + i)));
    const answers = await Promise.all(
      guesses.map((passcode) =>
        fetch(`${service.url}/api/unlock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ passcode }) }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as { token?: string; error?: { code: string } } }),
          // 200 connections at once from one address: those beyond the per-address connection cap
          // are closed unanswered (status 0 here), which refuses those guesses too.
          () => ({ status: 0, body: {} }),
        ),
      ),
    );
    // The spec allows five wrong tries per lockout period: no more hashes than that ran.
    expect(verify.mock.calls.length).toBeLessThanOrEqual(5);
    expect(verify.mock.calls.every(([p]) => p !== '2468')).toBe(true);
    expect([429, 0]).toContain(answers[149]!.status);
    expect(answers.filter((a) => a.status === 200)).toEqual([]);
    expect(answers.every((a) => a.status === 401 || a.status === 429 || a.status === 0)).toBe(true);
    expect(answers.filter((a) => a.status === 401 || a.status === 429).length).toBeGreaterThanOrEqual(5);
    // The client is now locked out: even the right code, sent alone, is refused.
    const after = await call('POST', '/api/unlock', { body: { passcode: '2468' } });
    expect(after.statusCode).toBe(429);
    expect(after.json().error.code).toBe('locked_out');
  });

  it('a right guess in a concurrent batch does not reopen the budget for the wrong guesses sent alongside it', async () => {
    const { service, call } = await start();
    await call('POST', '/api/security/passcode', { body: { passcode: '2468' } });
    const passcodes = service.security.passcodes;
    const real = passcodes.verify.bind(passcodes);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The right guess is held in its hash until the wrong ones sent after it have all been answered.
    const verify = vi.spyOn(passcodes, 'verify').mockImplementation(async (p) => {
      if (p === '2468') await held;
      return real(p);
    });
    const right = call('POST', '/api/unlock', { body: { passcode: '2468' } });
    for (let i = 0; i < 500 && verify.mock.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(verify.mock.calls).toHaveLength(1);
    const wrong = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', '/api/unlock', { body: { passcode: String(3000 + i) } })));
    release();
    expect((await right).statusCode).toBe(200);
    // Five reservations in all (the right one included): the other sixteen were never hashed.
    expect(verify.mock.calls).toHaveLength(5);
    expect(wrong.filter((r) => r.statusCode === 401)).toHaveLength(4);
    expect(wrong.filter((r) => r.statusCode === 429)).toHaveLength(16);
    // The four wrong guesses still count after the success: one more wrong try is the fifth.
    const next = await call('POST', '/api/unlock', { body: { passcode: '1357' } });
    expect(next.statusCode).toBe(429);
    expect(next.json().error.code).toBe('locked_out');
  });
});

describe('damaged files at start', () => {
  const seeded = (dir: string, name: string, content: string) => {
    fs.mkdirSync(path.join(dir, 'energy'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'energy', name), content);
  };

  it('a truncated settings.json: the bridge starts on the seeds and keeps the damaged file aside', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-security-'));
    dirs.push(dir);
    const truncated = '{\n  "gateway": {\n    "host": "192.168.1.5';
    seeded(dir, 'settings.json', truncated);
    const { call } = await start(dir);
    expect((await call('GET', '/api/settings')).json()).toMatchObject({ gateway: { host: '127.0.0.5', port: 9 } });
    const copies = fs.readdirSync(path.join(dir, 'energy')).filter((n) => n.startsWith('settings.json.corrupt-'));
    expect(copies).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, 'energy', copies[0]!), 'utf8')).toBe(truncated);
  });

  for (const [what, content] of [
    ['truncated', '{\n  "passcode": {\n    "algorithm": "scr'],
    ['valid JSON of the wrong shape', '{"passcode": "2468"}'],
  ] as const) {
    it(`a ${what} security.json: the bridge starts but stays locked (fail closed) until the file is deleted`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-security-'));
      dirs.push(dir);
      seeded(dir, 'security.json', content);
      const first = await start(dir);
      expect((await first.call('GET', '/api/settings')).json()).toMatchObject({ passcodeSet: true, unlocked: false, gateway: { host: '' } });
      expect((await first.call('PUT', '/api/settings', { body: { battery: { capacityKwh: 9 } } })).statusCode).toBe(401);
      expect((await first.call('POST', '/api/security/passcode', { body: { passcode: '1111' } })).statusCode).toBe(401);
      for (const passcode of ['2468', '0000']) {
        const unlock = await first.call('POST', '/api/unlock', { body: { passcode } });
        expect(unlock.statusCode).toBe(503);
        expect(unlock.json().error).toMatchObject({ code: 'passcode_unreadable', message: expect.stringContaining('security.json') });
      }
      // The file stays as it was (so a restart stays locked too), and a copy is kept beside it.
      expect(fs.readFileSync(first.securityFile, 'utf8')).toBe(content);
      expect(fs.readdirSync(path.join(dir, 'energy')).filter((n) => /^security\.json\.(corrupt|invalid)-\d+$/.test(n))).toHaveLength(1);
      await first.service.stop();
      services.splice(services.indexOf(first.service), 1);

      const second = await start(dir);
      expect((await second.call('GET', '/api/settings')).json()).toMatchObject({ passcodeSet: true, unlocked: false });
      await second.service.stop();
      services.splice(services.indexOf(second.service), 1);

      // The documented way out: delete the file and start again.
      fs.rmSync(second.securityFile);
      const third = await start(dir);
      expect((await third.call('GET', '/api/settings')).json()).toMatchObject({ passcodeSet: false, unlocked: true });
    });
  }
});
