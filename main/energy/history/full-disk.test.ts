import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.js';
import { fillDisk, tmpfsUnavailable, tryMountTmpfs, unmount } from '../../core/testing/tmpfs.js';
import { createEnergyService, type EnergyService } from '../index.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { waitForState } from '../testing/harness.js';

const cannotMount = tmpfsUnavailable(os.tmpdir());
if (cannotMount) console.log(`SKIPPED the energy full-disk tests: ${cannotMount}`);

describe.skipIf(cannotMount !== null)('energy bridge on a full disk (a 6 MiB tmpfs DATA_DIR the test mounts and fills)', () => {
  let dataDir: string;
  let sim: GatewaySimulator;
  let service: EnergyService;
  let mounted = false;
  let filler = '';
  const lines: Array<{ level: number; msg: string; stack?: unknown; err?: unknown }> = [];
  const polls = () => service.state.get().lastUpdated ?? 0;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-full-'));
    const why = tryMountTmpfs(dataDir, '6m');
    if (why) throw new Error(why);
    mounted = true;
    sim = await startGatewaySimulator({ firmware: 'V2.9' });
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    service = createEnergyService(
      { dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000' } },
      { logger: createLogger({ level: 'info', format: 'json', destination }) },
    );
    await service.start();
    await waitForState(service, (s) => s.connected);
  });
  afterAll(async () => {
    await service?.stop();
    await sim?.close();
    if (mounted) unmount(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says so in /api/history/stats and /api/state, logs it once (not once a poll), answers writes with 507, and recovers when space returns', async () => {
    const before = (await (await fetch(`${service.url}/api/history/stats`)).json()) as { count: number; writeError?: unknown };
    expect(before.writeError).toBeUndefined();
    expect(service.state.get().storageError).toBeNull();

    filler = fillDisk(dataDir);
    const fullAt = polls();
    // Three polls on the full disk.
    await waitForState(service, (s) => (s.lastUpdated ?? 0) > fullAt && s.storageError !== null, 15_000);
    const firstFailing = polls();
    await waitForState(service, (s) => (s.lastUpdated ?? 0) > firstFailing, 15_000);
    const second = polls();
    await waitForState(service, (s) => (s.lastUpdated ?? 0) > second, 15_000);

    const stats = (await (await fetch(`${service.url}/api/history/stats`)).json()) as { writeError?: { what: string; message: string; since: string; lastAt: string } };
    expect(stats.writeError).toMatchObject({ what: 'history write', message: expect.stringMatching(/disk .* is full/) });
    expect(Date.parse(stats.writeError!.since)).toBeLessThan(Date.parse(stats.writeError!.lastAt));
    const state = (await (await fetch(`${service.url}/api/state`)).json()) as { storageError: { what: string; message: string; since: number } | null; connected: boolean };
    expect(state.connected).toBe(true);
    expect(state.storageError).toMatchObject({ what: 'history write', message: expect.stringMatching(/full/) });
    expect(state.storageError!.since).toBe(Date.parse(stats.writeError!.since));

    const historyErrors = lines.filter((l) => l.level >= 50 && /history/.test(l.msg));
    expect(historyErrors).toHaveLength(1);
    expect(historyErrors[0]!.err).toBeUndefined();

    // A write route: 507 with a plain message, not 500 with raw ENOSPC text.
    const put = await fetch(`${service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ battery: { capacityKwh: 12 } }) });
    const body = (await put.json()) as { error: { code: string; message: string } };
    expect(put.status).toBe(507);
    expect(body.error.code).toBe('storage_full');
    expect(body.error.message).toMatch(/disk .* is full/);
    expect(JSON.stringify(body)).not.toMatch(/ENOSPC|database or disk is full|\bat \//);

    // Space returns: everything carries on by itself.
    fs.rmSync(filler);
    const freedAt = polls();
    await waitForState(service, (s) => (s.lastUpdated ?? 0) > freedAt && s.storageError === null, 15_000);
    const after = (await (await fetch(`${service.url}/api/history/stats`)).json()) as { count: number; writeError?: unknown };
    expect(after.writeError).toBeUndefined();
    expect(after.count).toBeGreaterThan(before.count);
    const again = await fetch(`${service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ battery: { capacityKwh: 12 } }) });
    expect(again.status).toBe(200);
    expect(lines.some((l) => l.level === 30 && /stored on disk again/.test(l.msg))).toBe(true);
  });
});
