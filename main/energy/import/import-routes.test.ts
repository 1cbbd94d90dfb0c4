import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyService } from '../index.js';
import { hashTree, sigenFacts, sigenFolderCopy } from './testing/sigen-fixture.js';
import type { PairingData } from 'hap-controller/lib/protocol/pairing-protocol.js';
import { freePort } from '../../core/testing/free-port.js';

const load = createRequire(import.meta.url);
const HttpClient = (load('hap-controller/lib/transport/ip/http-client.js') as typeof import('hap-controller/lib/transport/ip/http-client.js')).default;

/**
 * POST /api/import/preview, POST /api/import and GET /api/import/status on a running bridge (no
 * gateway configured, as on first run), against a copy of a real sigen-home-bridge data folder.
 */
const facts = sigenFacts;
const NOW = facts.history.max_t + 3_600_000;
const dirs: string[] = [];
const tmp = (prefix: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
};
const src = sigenFolderCopy();
dirs.push(src);
let srcBefore: Record<string, string>;
let service: EnergyService;
let homekitPort: number;


beforeAll(async () => {
  // Its HomeKit bridge port in this copy: a free loopback port of this test's.
  homekitPort = await freePort();
  const file = path.join(src, 'settings.json');
  const theirs = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...theirs, homekit: { ...theirs.homekit, port: homekitPort } }, null, 2));
  srcBefore = hashTree(src);
  service = createEnergyService({ dataDir: tmp('energy-import-api-'), host: '127.0.0.1', port: 0, env: {} }, { logger: silentLogger, clock: { ...systemClock, now: () => NOW } });
  await service.start();
});

afterAll(async () => {
  await service?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, token?: string) => {
  const res = await service.app.inject({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}), headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() };
};

describe('import API', () => {
  it('refuses bad input with a 400 naming the field, and a folder that is not its folder with a 422', async () => {
    const cases: Array<[unknown, number, string, RegExp]> = [
      [{ from: 'fetcharr', dir: src }, 400, 'from', /sigen-home-bridge/],
      [{ from: 'sigen-home-bridge' }, 400, 'dir', /.+/],
      [{ from: 'sigen-home-bridge', dir: 'data/sigen' }, 400, 'dir', /absolute path/],
      [{ from: 'sigen-home-bridge', dir: path.join(src, 'missing') }, 400, 'dir', /no folder at/],
      [{ from: 'sigen-home-bridge', dir: path.join(src, 'settings.json') }, 400, 'dir', /is a file, not a folder/],
      [{ from: 'sigen-home-bridge', dir: src, extra: 1 }, 400, 'extra', /unknown field/],
      [{ from: 'sigen-home-bridge', dir: src, historyFiles: ['old.json'] }, 400, 'historyFiles.0', /absolute path/],
      [{ from: 'sigen-home-bridge', dir: tmp('not-sigen-') }, 422, 'dir', /is not a sigen-home-bridge data folder/],
    ];
    for (const url of ['/api/import/preview', '/api/import']) {
      for (const [body, status, field, message] of cases) {
        const r = await call('POST', url, body);
        expect(r.status, `${url} ${JSON.stringify(body)}`).toBe(status);
        expect(r.body.error).toMatchObject({ field });
        expect(r.body.error.message).toMatch(message);
        expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts:\d+/); // no stack
      }
    }
    expect((await call('GET', '/api/import/status')).body).toEqual({ state: 'idle' });
  });

  it('previews what would come and writes nothing', async () => {
    const before = service.settings.get();
    const r = await call('POST', '/api/import/preview', { from: 'sigen-home-bridge', dir: src });
    expect(r.status).toBe(200);
    const p = r.body;
    expect(p.history.files[0]).toMatchObject({ file: path.join(src, 'history.db'), rows: facts.history.rows, firstT: facts.history.min_t, lastT: facts.history.max_t, damage: null });
    expect(p.history.files[1]).toMatchObject({ file: path.join(src, 'history.json.imported'), rows: facts.legacy_history.rows });
    expect(p.settings.carried).toContainEqual({ from: 'sigen.host', to: 'gateway.host' });
    expect(p.passcode).toBe('carried');
    expect(p.homekit).toMatchObject({ username: facts.homekit.bridge_username, bridgeName: facts.homekit.bridge_name, pairedControllers: 1 });
    expect(p.notCarried.map((n: { setting: string }) => n.setting)).toEqual(expect.arrayContaining(['poll.schedule', 'appearance', 'homekit.labels']));
    expect(service.settings.get()).toEqual(before);
    expect(service.security.passcodes.isSet).toBe(false);
  });

  it('imports in the background with progress; the old passcode then locks the settings and unlocks them', async () => {
    // The pairing page was open before: hap-nodejs has read its store into memory already.
    expect((await call('GET', '/api/homehub/pairing')).body).toMatchObject({ paired: false });
    const started = await call('POST', '/api/import', { from: 'sigen-home-bridge', dir: src });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ state: 'running', from: 'sigen-home-bridge', dir: src });
    // The import brought a passcode: the caller stays unlocked with the token it got.
    const token = started.body.token as string;
    expect(token).toEqual(expect.any(String));
    expect((await call('GET', '/api/import/status')).status).toBe(401);
    expect((await call('POST', '/api/import', { from: 'sigen-home-bridge', dir: src }, token)).body.error.code).toBe('import_running');

    let status = (await call('GET', '/api/import/status', undefined, token)).body;
    for (let i = 0; i < 400 && status.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await call('GET', '/api/import/status', undefined, token)).body;
    }
    expect(status.state).toBe('done');
    expect(status.result.status).toBe('imported');
    expect(status.result.historyReports).toEqual([
      { file: path.join(src, 'history.db'), status: 'imported', imported: facts.history.rows, skipped: 0 },
      { file: path.join(src, 'history.json.imported'), status: 'imported', imported: 0, skipped: facts.legacy_history.rows },
    ]);
    // The running bridge came up under the old identity: nothing waits for a restart.
    expect(status.result.restartRequired).toEqual([]);
    const pairing = JSON.parse(fs.readFileSync(path.join(src, 'controller-pairing.json'), 'utf8')) as PairingData;
    const phone = new HttpClient(facts.homekit.bridge_username, '127.0.0.1', homekitPort, pairing);
    try {
      const { accessories } = await phone.getAccessories();
      expect(accessories.length).toBeGreaterThan(1);
    } finally {
      await phone.close();
    }

    const stats = (await call('GET', '/api/history/stats')).body;
    expect(stats).toMatchObject({ count: facts.history.rows, firstT: facts.history.min_t, lastT: facts.history.max_t });
    const s = service.settings.get();
    expect(s.gateway).toMatchObject({ host: '127.0.0.1', port: 15022 });
    expect(s.history.retentionDays).toBe(30);

    const wrong = await call('POST', '/api/unlock', { passcode: '1358' });
    expect(wrong.status).toBe(401);
    const right = await call('POST', '/api/unlock', { passcode: facts.passcode.value });
    expect(right.status).toBe(200);
    expect(hashTree(src)).toEqual(srcBefore);
  });

  it('is behind the passcode gate', async () => {
    for (const [method, url] of [
      ['POST', '/api/import/preview'],
      ['POST', '/api/import'],
      ['GET', '/api/import/status'],
    ] as const) {
      const r = await call(method, url, method === 'POST' ? { from: 'sigen-home-bridge', dir: src } : undefined);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('locked');
    }
  });
});
