import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFrom } from '../../core/testing/request-from.js';
import { startEnergyHarness, waitForState } from '../testing/harness.js';

/**
 * The backup and cut-off SOCs (40046–40048, protocol V2.7+) through the bridge's HTTP API, over
 * Modbus TCP against the simulated gateway: shown where the firmware has them, said plainly where
 * it does not, edited by the owner only, through the controller's rails.
 */
type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;

const client = (h: Harness, from: string) => (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  requestFrom(from, `${h.service.url}${url}`, { method, body, headers });

describe('backup and cut-off SOCs on firmware that has them (V2.9)', () => {
  let h: Harness;
  let pc: ReturnType<typeof client>;
  let guest: ReturnType<typeof client>;
  const writes = () => h.sim.plant.control.writes.filter((w) => w.by === 'modbus');

  beforeAll(async () => {
    h = await startEnergyHarness({ sim: { initialSoc: 40 } });
    pc = client(h, '127.0.0.1');
    guest = client(h, '127.0.0.2');
    await waitForState(h.service, (s) => s.connected && s.gateway.firmware !== null);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('shows the values the plant holds', async () => {
    const res = await guest('GET', '/api/control/reserve');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ supported: true, backupSoc: 10, chargeCutoffSoc: 100, dischargeCutoffSoc: 5 });
  });

  it('a guest cannot change them; with control off nothing is written', async () => {
    const g = await guest('PUT', '/api/control/reserve', { backupSoc: 30 });
    expect(g.status).toBe(403);
    expect(g.body.error.code).toBe('owner_only');
    const off = await pc('PUT', '/api/control/reserve', { backupSoc: 30 });
    expect(off.status).toBe(409);
    expect(off.body.error.code).toBe('control_off');
    expect(writes()).toHaveLength(0);
  });

  it('in a dry run the write it would make is shown and logged, nothing written', async () => {
    expect((await pc('PUT', '/api/settings', { control: { enabled: true, staleAfterPolls: 20 } })).status).toBe(200);
    const res = await pc('PUT', '/api/control/reserve', { backupSoc: 30 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: true, writes: [{ address: 40046, value: 30, before: 10, readBack: null }] });
    expect(writes()).toHaveLength(0);
    expect((await guest('GET', '/api/control/audit?limit=1')).body.entries[0]).toMatchObject({ kind: 'dry-run', by: 'owner', reason: 'Set backup SOC 30 %' });
  });

  it('the owner sets them: written to 40046/40048 in tenths of a percent, read back, in the audit log; the plant obeys', async () => {
    expect((await pc('PUT', '/api/settings', { control: { dryRun: false } })).status).toBe(200);
    const res = await pc('PUT', '/api/control/reserve', { backupSoc: 30, dischargeCutoffSoc: 25.5 });
    expect(res.status).toBe(200);
    expect(res.body.writes.map((w: { address: number; value: number; readBack: number }) => [w.address, w.value, w.readBack])).toEqual([
      [40046, 30, 30],
      [40048, 25.5, 25.5],
    ]);
    // On the wire: ‰ words, as the protocol's ÷10 % gain says.
    expect(writes().map((w) => [w.address, w.words])).toEqual([
      [40046, [300]],
      [40048, [255]],
    ]);
    expect(h.sim.plant.control.values).toMatchObject({ backupSoc: 30, dischargeCutoffSoc: 25.5 });
    expect((await guest('GET', '/api/control/reserve')).body).toEqual({ supported: true, backupSoc: 30, chargeCutoffSoc: 100, dischargeCutoffSoc: 25.5 });
    expect((await guest('GET', '/api/control/audit?limit=1')).body.entries[0]).toMatchObject({ kind: 'write', by: 'owner', writes: [{ register: 'backupSoc', before: 10, readBack: 30 }, { register: 'dischargeCutoffSoc', before: 5, readBack: 25.5 }] });
    // Not a mode: Automatic (the kill switch) leaves them as the owner set them.
    expect((await pc('POST', '/api/control/kill', {})).status).toBe(200);
    expect(h.sim.plant.control.values).toMatchObject({ backupSoc: 30, dischargeCutoffSoc: 25.5 });
  });

  it('bad values are a 400 naming the field, before anything is written', async () => {
    const n = writes().length;
    const cases: Array<[unknown, string]> = [
      [{ backupSoc: 101 }, 'backupSoc'],
      [{ chargeCutoffSoc: 95.25 }, 'chargeCutoffSoc'],
      [{ dischargeCutoffSoc: 'low' }, 'dischargeCutoffSoc'],
      [{ backupSoc: 20, startStop: 0 }, 'startStop'],
      [{}, 'body'],
      // Below the owner's lowest charge (control.minSoc, 20 %).
      [{ dischargeCutoffSoc: 15 }, 'dischargeCutoffSoc'],
      // The discharge cut-off must stay below the charge cut-off.
      [{ chargeCutoffSoc: 25 }, 'chargeCutoffSoc'],
      [{ backupSoc: 100, chargeCutoffSoc: 90 }, 'backupSoc'],
    ];
    for (const [body, field] of cases) {
      const res = await pc('PUT', '/api/control/reserve', body);
      expect([res.status, res.body.error?.field], JSON.stringify(body)).toEqual([400, field]);
    }
    expect(writes()).toHaveLength(n);
  });

  it('the write budget counts these writes too', async () => {
    expect((await pc('PUT', '/api/settings', { control: { maxWritesPerHour: 3 } })).status).toBe(200);
    // Two writes so far this hour (the kill switch had nothing to put back): two more would pass it.
    const res = await pc('PUT', '/api/control/reserve', { backupSoc: 40, dischargeCutoffSoc: 30 });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('write_budget');
    expect(h.sim.plant.control.values).toMatchObject({ backupSoc: 30, dischargeCutoffSoc: 25.5 });
    expect(h.sim.plant.control.startStopWrites).toBe(0);
  });
});

describe("a guest's looks at the SOCs", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startEnergyHarness({ sim: { initialSoc: 40 } });
    await waitForState(h.service, (s) => s.connected && s.gateway.firmware !== null);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("a burst costs the gateway one connection (30 would queue 30 reads ahead of the owner's kill switch)", async () => {
    const pc = client(h, '127.0.0.1');
    const guest = client(h, '127.0.0.2');
    // The poller keeps its one connection open; battery control opens one per operation.
    const before = h.sim.server.connectionCount;
    const looks = await Promise.all(Array.from({ length: 30 }, () => guest('GET', '/api/control/reserve')));
    expect(looks.every((r) => r.status === 200 && r.body.backupSoc === 10)).toBe(true);
    expect(h.sim.server.connectionCount - before).toBe(1);
    expect((await pc('POST', '/api/control/kill', {})).status).toBe(200);
  });
});

describe('backup and cut-off SOCs on firmware without them (V2.5)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startEnergyHarness({ sim: { firmware: 'V2.5' } });
    await waitForState(h.service, (s) => s.connected && s.gateway.firmware !== null);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('says the firmware lacks them, and a change is refused without a write', async () => {
    const get = await requestFrom('127.0.0.2', `${h.service.url}/api/control/reserve`);
    expect(get.body).toEqual({ supported: false, message: 'This gateway’s firmware (protocol V2.5) has no backup or cut-off SOC registers: they came with V2.7. Set them in the vendor’s app.' });
    await requestFrom('127.0.0.1', `${h.service.url}/api/settings`, { method: 'PUT', body: { control: { enabled: true, dryRun: false, staleAfterPolls: 20 } } });
    const put = await requestFrom('127.0.0.1', `${h.service.url}/api/control/reserve`, { method: 'PUT', body: { backupSoc: 30 } });
    expect(put.status).toBe(409);
    expect(put.body.error).toMatchObject({ code: 'not_supported', message: expect.stringContaining('no backup or cut-off SOC registers') });
    expect(h.sim.plant.control.writes).toHaveLength(0);
  });
});
