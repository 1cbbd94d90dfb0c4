import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFrom } from '../../core/testing/request-from.js';
import { startEnergyHarness, waitForState } from '../testing/harness.js';

/**
 * Battery control through the bridge's HTTP API, over real sockets, with the bridge polling the
 * simulated gateway: off by default, the owner's alone (the PC is 127.0.0.1, a guest on the LAN
 * 127.0.0.2), a drive-by page refused, dry run first, the kill switch a route.
 */
type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;

describe('battery control is the owner’s, and off until the owner turns it on', () => {
  let h: Harness;
  const pc = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => requestFrom('127.0.0.1', `${h.service.url}${url}`, { method, body, headers });
  const guest = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => requestFrom('127.0.0.2', `${h.service.url}${url}`, { method, body, headers });
  const writes = () => h.sim.plant.control.writes.filter((w) => w.by === 'modbus');
  const charge = { mode: 'charge', targetSoc: 95, powerW: 2500, source: 'grid' };

  beforeAll(async () => {
    h = await startEnergyHarness({ sim: { initialSoc: 40 } });
    await waitForState(h.service, (s) => s.connected && s.battery.soc !== null);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('is off by default: the status says so and a mode is refused, nothing written', async () => {
    const status = await guest('GET', '/api/control');
    expect(status.body).toMatchObject({ enabled: false, dryRun: true, mode: { mode: 'automatic' } });
    const res = await pc('POST', '/api/control/mode', charge);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'control_off' });
    expect(writes()).toHaveLength(0);
  });

  it('a guest can neither turn it on nor change the mode nor pull the kill switch', async () => {
    const on = await guest('PUT', '/api/settings', { control: { enabled: true } });
    expect(on.status).toBe(403);
    expect(on.body.error).toMatchObject({ code: 'owner_only', field: 'control.enabled' });
    for (const [url, body] of [['/api/control/mode', charge], ['/api/control/kill', {}]] as const) {
      const res = await guest('POST', url, body);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('owner_only');
    }
    expect((await pc('GET', '/api/settings')).body.control.enabled).toBe(false);
  });

  it('turned on by the owner it starts in dry run: the writes it would make are shown and logged, none made', async () => {
    // Polls every second here: a few seconds late on a busy machine must not count as stale.
    const on = await pc('PUT', '/api/settings', { control: { enabled: true, staleAfterPolls: 20 } });
    expect(on.status).toBe(200);
    expect(on.body.settings.control).toMatchObject({ enabled: true, dryRun: true });
    const res = await pc('POST', '/api/control/mode', charge);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: true, message: expect.stringContaining('The battery charges from the grid at up to 2500 W until it reaches 95 %') });
    expect(res.body.writes.map((w: { address: number; value: number }) => [w.address, w.value])).toEqual([
      [40032, 2500],
      [40031, 3],
      [40029, 1],
    ]);
    expect(writes()).toHaveLength(0);
    const audit = await guest('GET', '/api/control/audit?limit=1');
    expect(audit.body.entries[0]).toMatchObject({ kind: 'dry-run', by: 'owner' });
  });

  it('a drive-by page (a cross-site POST from a browser on the PC) is refused, nothing written', async () => {
    await pc('PUT', '/api/settings', { control: { dryRun: false } });
    const res = await pc('POST', '/api/control/mode', charge, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden_origin');
    const kill = await pc('POST', '/api/control/kill', {}, { origin: 'https://evil.example' });
    expect(kill.status).toBe(403);
    expect(writes()).toHaveLength(0);
  });

  it('the price plan is shown before it acts; without live prices there is none, said in words', async () => {
    const plan = await guest('GET', '/api/control/plan');
    expect(plan.body).toMatchObject({ source: null, steps: [], message: 'No live prices: the plan needs a price source (Amber or Octopus). The plant runs on its own.' });
  });

  it('bad input is a 400 naming the field', async () => {
    const res = await pc('POST', '/api/control/mode', { mode: 'charge', targetSoc: 150, powerW: 2500 });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('targetSoc');
  });

  it('the owner charges for real; the kill switch route puts the plant back to Automatic', async () => {
    const res = await pc('POST', '/api/control/mode', charge);
    expect(res.status).toBe(200);
    expect(h.sim.plant.control.values).toMatchObject({ remoteEms: 1, controlMode: 3, chargeLimitW: 2500 });
    expect((await guest('GET', '/api/control')).body).toMatchObject({ mode: { mode: 'charge' }, remoteControl: true });
    const kill = await pc('POST', '/api/control/kill', {});
    expect(kill.status).toBe(200);
    expect(kill.body.message).toMatch(/^Automatic: remote control is off/);
    expect(h.sim.plant.control.values).toMatchObject({ remoteEms: 0, chargeLimitW: 5000 });
    expect(h.sim.plant.control.startStopWrites).toBe(0);
  });

  it('the export holds the whole audit log: every decision and write so far, with registers, values and read-backs', async () => {
    const res = await guest('GET', '/api/control/audit/export');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="control-audit.jsonl"');
    const lines = res.text.trimEnd().split('\n').map((l) => JSON.parse(l) as { at: string; kind: string; by: string; reason: string; writes?: Array<{ address: number; value: number; readBack: number | null }> });
    // Oldest first: refused while off, the dry run, the real charge, the kill switch.
    expect(lines.map((e) => e.kind)).toEqual(['refused', 'dry-run', 'write', 'write']);
    expect(lines[0]!.reason).toMatch(/Battery control is off/);
    expect(lines[2]!.writes!.map((w) => [w.address, w.value, w.readBack])).toEqual([
      [40032, 2500, 2500],
      [40031, 3, 3],
      [40029, 1, 1],
    ]);
    expect(lines[3]).toMatchObject({ by: 'owner', reason: expect.stringContaining('kill switch') });
    // The same entries the page lists (newest first there).
    const page = await guest('GET', '/api/control/audit?limit=1000');
    expect(page.body.entries).toEqual([...lines].reverse());
  });

  it('with a passcode session, another device is the owner', async () => {
    const set = await pc('POST', '/api/security/passcode', { passcode: '2468' });
    const bearer = { authorization: `Bearer ${set.body.token}` };
    const res = await guest('POST', '/api/control/mode', { mode: 'hold' }, bearer);
    expect(res.status).toBe(200);
    expect(h.sim.plant.control.values).toMatchObject({ remoteEms: 1, dischargeLimitW: 0 });
    expect((await guest('POST', '/api/control/kill', {})).status).toBe(401);
    expect((await guest('POST', '/api/control/kill', {}, bearer)).status).toBe(200);
  });
});
