import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createModbusConnection } from '../gateway/connection.js';
import { emptyLiveState, type LiveState } from '../live-state.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { AuditLog } from './audit-log.js';
import { BatteryController } from './controller.js';
import { controlSettings, type ControlSettings } from './settings.js';

/**
 * The controller's modes and rails over Modbus TCP against the simulated gateway (loopback), on a
 * manual clock: the polls are handed to it as the service would (one per 5 s interval).
 */
let sim: GatewaySimulator;
let dir: string;
let settings: ControlSettings;
let clock: ReturnType<typeof createManualClock>;
let controller: BatteryController;
let audit: AuditLog;
let INTERVAL = 5000;

let planStep: ConstructorParameters<typeof BatteryController>[0]['planStep'];

async function setup(simOpts: Parameters<typeof startGatewaySimulator>[0] = {}) {
  // Midnight UTC: no sun, so the battery's flows are the controller's doing.
  const night = Date.UTC(2026, 5, 21, 0, 0);
  sim = await startGatewaySimulator({ now: () => night, timeZone: 'UTC', maxBatteryW: 5000, initialSoc: 50, ...simOpts });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-'));
  settings = controlSettings.parse({ enabled: true, dryRun: false });
  clock = createManualClock(night);
  audit = new AuditLog(path.join(dir, 'audit.jsonl'));
  controller = new BatteryController({
    clock,
    logger: silentLogger,
    settings: () => settings,
    pollIntervalMs: () => INTERVAL,
    connect: () => createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 }),
    audit,
    stateFile: path.join(dir, 'state.json'),
    planStep: (at, state) => planStep?.(at, state) ?? null,
  });
}

/** One good poll now (SOC as given), then the controller's work done. */
async function poll(soc = 50): Promise<void> {
  const s: LiveState = { ...emptyLiveState({ host: sim.host, port: sim.port }, INTERVAL), connected: true, lastUpdated: clock.now() };
  s.battery = { ...s.battery, soc };
  controller.onPoll(s, clock.now());
  await controller.idle();
}

/** Good polls every interval for `ms`. */
async function pollsFor(ms: number, soc = 50): Promise<void> {
  for (let t = 0; t < ms; t += INTERVAL) {
    clock.advance(INTERVAL);
    await poll(soc);
  }
}

async function failedPoll(): Promise<void> {
  controller.onPoll({ ...emptyLiveState({ host: sim.host, port: sim.port }, INTERVAL), connected: false, lastError: 'timeout' }, clock.now());
  await controller.idle();
}

const modbusWrites = () => sim.plant.control.writes.filter((w) => w.by === 'modbus');
const plant = () => sim.plant.control.values;
const charge = { mode: 'charge', targetSoc: 90, powerW: 3000, source: 'grid', end: { kind: 'none' } } as const;

beforeEach(async () => {
  INTERVAL = 5000;
  planStep = undefined;
  await setup();
  await poll();
});
afterEach(async () => {
  await controller.idle();
  // Plant start/stop is never written, whatever a test did.
  expect(sim.plant.control.startStopWrites).toBe(0);
  expect(sim.plant.control.writes.some((w) => w.address === 40000)).toBe(false);
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('modes', () => {
  it('charge now: charging limit, command charging from the grid, remote EMS on; the plant charges and 30003 reads 7', async () => {
    const r = await controller.setMode(charge, 'owner');
    expect(r.writes.map((w) => [w.address, w.value, w.readBack])).toEqual([
      [40032, 3000, 3000],
      [40031, 3, 3],
      [40029, 1, 1],
    ]);
    expect(sim.plant.control.emsWorkMode).toBe(7);
    expect(sim.plant.flows.battery).toBe(3000);
    expect(audit.latest(1)[0]).toMatchObject({ kind: 'write', by: 'owner', writes: [{ register: 'chargeLimitW', address: 40032, value: 3000, before: 5000, readBack: 3000 }, {}, {}] });
  });

  it('hold: no discharging while the house draws from the grid at night', async () => {
    await controller.setMode({ mode: 'hold', end: { kind: 'none' } }, 'owner');
    expect(plant()).toMatchObject({ remoteEms: 1, controlMode: 2, dischargeLimitW: 0 });
    expect(sim.plant.flows.battery).toBe(0);
    expect(sim.plant.flows.grid).toBeGreaterThan(0);
  });

  it('discharge now: command discharging at the power asked, not below the user’s lowest charge', async () => {
    await expect(controller.setMode({ mode: 'discharge', floorSoc: 10, powerW: 4000, end: { kind: 'none' } }, 'owner')).rejects.toMatchObject({ status: 400, field: 'floorSoc' });
    await controller.setMode({ mode: 'discharge', floorSoc: 30, powerW: 4000, end: { kind: 'none' } }, 'owner');
    expect(plant()).toMatchObject({ remoteEms: 1, controlMode: 6, dischargeLimitW: 4000 });
    expect(sim.plant.flows.battery).toBe(-4000);
  });

  it('export limit zero: only 40038 is written, remote EMS stays off', async () => {
    const r = await controller.setMode({ mode: 'exportLimit', limitW: 0, end: { kind: 'none' } }, 'owner');
    expect(r.writes.map((w) => [w.address, w.value])).toEqual([[40038, 0]]);
    expect(plant()).toMatchObject({ remoteEms: 0, exportLimitW: 0 });
  });

  it('automatic puts remote EMS off and the user’s own limits back', async () => {
    await controller.setMode(charge, 'owner');
    const r = await controller.setMode({ mode: 'automatic' }, 'owner');
    expect(r.writes.map((w) => [w.address, w.value])).toEqual([
      [40029, 0],
      [40032, 5000],
    ]);
    expect(plant()).toMatchObject({ remoteEms: 0, chargeLimitW: 5000 });
  });

  it('a mode ends at its SOC: charging to 60 % goes back to Automatic when the battery reads 60 %', async () => {
    await controller.setMode({ ...charge, targetSoc: 60 }, 'owner');
    clock.advance(INTERVAL);
    await poll(59);
    expect(plant().remoteEms).toBe(1);
    clock.advance(INTERVAL);
    await poll(60);
    expect(plant().remoteEms).toBe(0);
    expect(controller.status().mode.mode).toBe('automatic');
  });

  it('a mode ends at its time', async () => {
    await controller.setMode({ mode: 'hold', end: { kind: 'time', at: new Date(clock.now() + 2 * INTERVAL).toISOString() } }, 'owner');
    clock.advance(INTERVAL);
    await poll();
    expect(plant().remoteEms).toBe(1);
    clock.advance(INTERVAL);
    await poll();
    expect(plant()).toMatchObject({ remoteEms: 0, dischargeLimitW: 5000 });
  });
});

describe('rails', () => {
  it('off: a mode is refused and nothing is written', async () => {
    settings = { ...settings, enabled: false };
    await expect(controller.setMode(charge, 'owner')).rejects.toMatchObject({ status: 409, code: 'control_off' });
    expect(modbusWrites()).toHaveLength(0);
  });

  it('dry run: the plan and the would-be writes are logged, nothing is written', async () => {
    settings = { ...settings, dryRun: true };
    const r = await controller.setMode(charge, 'owner');
    expect(r).toMatchObject({ dryRun: true, message: expect.stringMatching(/^Dry run: nothing written/) });
    expect(r.writes.map((w) => [w.address, w.value, w.before])).toEqual([
      [40032, 3000, 5000],
      [40031, 3, 2],
      [40029, 1, 0],
    ]);
    await controller.kill('owner');
    expect(modbusWrites()).toHaveLength(0);
    expect(audit.latest(2).map((e) => e.kind)).toEqual(['decision', 'dry-run']);
  });

  it('writes only on change: the same mode twice writes nothing the second time', async () => {
    await controller.setMode(charge, 'owner');
    const n = modbusWrites().length;
    const r = await controller.setMode(charge, 'owner');
    expect(r.writes).toEqual([]);
    expect(modbusWrites()).toHaveLength(n);
  });

  it('the write budget: past it a mode change is refused whole, an hour later it goes through', async () => {
    INTERVAL = 600_000;
    settings = { ...settings, maxWritesPerHour: 4 };
    await controller.setMode(charge, 'owner');
    const n = modbusWrites().length;
    await expect(controller.setMode({ mode: 'hold', end: { kind: 'none' } }, 'owner')).rejects.toMatchObject({ status: 429, code: 'write_budget' });
    expect(modbusWrites()).toHaveLength(n);
    expect(audit.latest(1)[0]).toMatchObject({ kind: 'refused' });
    await pollsFor(3_600_000);
    await controller.setMode({ mode: 'hold', end: { kind: 'none' } }, 'owner');
    expect(plant()).toMatchObject({ dischargeLimitW: 0, chargeLimitW: 5000 });
  });

  it('the write budget counts across restarts: a restart loop cannot write more than it allows in an hour', async () => {
    INTERVAL = 600_000;
    settings = { ...settings, maxWritesPerHour: 4 };
    await controller.setMode(charge, 'owner');
    expect(controller.status().writesLastHour).toBe(3);
    // The service restarts (a crash loop): a new controller on the same state file.
    const restart = () =>
      new BatteryController({
        clock,
        logger: silentLogger,
        settings: () => settings,
        pollIntervalMs: () => INTERVAL,
        connect: () => createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 }),
        audit,
        stateFile: path.join(dir, 'state.json'),
      });
    controller = restart();
    await poll();
    expect(controller.status()).toMatchObject({ writesLastHour: 3, maxWritesPerHour: 4 });
    const n = modbusWrites().length;
    await expect(controller.setMode({ mode: 'hold', end: { kind: 'none' } }, 'owner')).rejects.toMatchObject({ status: 429, code: 'write_budget' });
    expect(modbusWrites()).toHaveLength(n);
    // An hour after those writes, a restarted controller has its whole budget again.
    clock.advance(3_600_000);
    controller = restart();
    await poll();
    expect(controller.status().writesLastHour).toBe(0);
    await controller.setMode({ mode: 'hold', end: { kind: 'none' } }, 'owner');
    expect(plant()).toMatchObject({ dischargeLimitW: 0, chargeLimitW: 5000 });
  });

  it('no write on a stale reading; once the gateway answers again the plant goes back to Automatic', async () => {
    await controller.setMode(charge, 'owner');
    const n = modbusWrites().length;
    // Readings stop: three intervals and more without a good poll.
    clock.advance(4 * INTERVAL);
    await failedPoll();
    expect(controller.status().stale).toBe(true);
    await expect(controller.setMode({ mode: 'hold', end: { kind: 'none' } }, 'owner')).rejects.toMatchObject({ code: 'stale_reading' });
    expect(modbusWrites()).toHaveLength(n);
    expect(audit.read().some((e) => e.kind === 'stale')).toBe(true);
    clock.advance(INTERVAL);
    await poll();
    expect(plant()).toMatchObject({ remoteEms: 0, chargeLimitW: 5000 });
    expect(controller.status()).toMatchObject({ stale: false, mode: { mode: 'automatic' } });
  });

  it('the backup and cut-off SOCs are not written on a stale reading either', async () => {
    clock.advance(4 * INTERVAL);
    await failedPoll();
    await expect(controller.writeSettings({ backupSoc: 30 }, 'owner', 'Set backup SOC 30 %')).rejects.toMatchObject({ status: 409, code: 'stale_reading' });
    expect(modbusWrites()).toHaveLength(0);
    expect(plant().backupSoc).toBe(10);
  });

  it('a gap in the readings (no failed poll seen) also returns the plant to Automatic', async () => {
    await controller.setMode(charge, 'owner');
    clock.advance(10 * INTERVAL);
    await poll();
    expect(plant().remoteEms).toBe(0);
  });

  it('an export limit the plant reverts by itself is reported and not fought', async () => {
    await controller.setMode({ mode: 'exportLimit', limitW: 0, end: { kind: 'none' } }, 'owner');
    sim.plant.control.revertExportLimit();
    await pollsFor(60_000);
    expect(controller.status().backedOff?.message).toBe('Another controller changed the export limit (40038) from 0 to 15000. Backing off: nothing more is written until you choose a mode.');
    const n = modbusWrites().length;
    await pollsFor(180_000);
    expect(modbusWrites()).toHaveLength(n);
    expect(plant().exportLimitW).toBe(15000);
    expect(audit.read().filter((e) => e.kind === 'other-controller')).toHaveLength(1);
  });

  it('another controller (a virtual power plant) changing the mode: reported, backed off, left alone, even when the mode ends', async () => {
    await controller.setMode({ ...charge, end: { kind: 'time', at: new Date(clock.now() + 120_000).toISOString() } }, 'owner');
    sim.otherController('controlMode', 6);
    await pollsFor(60_000);
    expect(controller.status().backedOff?.message).toMatch(/^Another controller changed remote EMS control mode \(40031\) from 3 to 6/);
    const n = modbusWrites().length;
    await pollsFor(120_000);
    expect(plant()).toMatchObject({ controlMode: 6, remoteEms: 1 });
    expect(modbusWrites()).toHaveLength(n);
  });

  it('the check waits its interval: a changed value is not read before it', async () => {
    await controller.setMode(charge, 'owner');
    sim.otherController('controlMode', 6);
    await pollsFor(55_000);
    expect(controller.status().backedOff).toBeNull();
    await pollsFor(INTERVAL);
    expect(controller.status().backedOff).not.toBeNull();
  });
});

describe('the kill switch', () => {
  it('back to Automatic at once, past the write budget, and says the custom mode is not restored', async () => {
    await controller.idle();
    await sim.close();
    await setup({ emsWorkMode: 9 });
    await poll();
    settings = { ...settings, maxWritesPerHour: 3 };
    await controller.setMode(charge, 'owner');
    const r = await controller.kill('owner');
    expect(plant()).toMatchObject({ remoteEms: 0, chargeLimitW: 5000 });
    expect(r.message).toContain('did not go back to its previous mode (custom)');
    expect(r.message).toContain("choose it again in the vendor's app");
  });

  it('with the gateway away it says so, and writes Automatic when it answers', async () => {
    await controller.setMode(charge, 'owner');
    clock.advance(4 * INTERVAL);
    await failedPoll();
    const r = await controller.kill('owner');
    expect(r.message).toBe('The gateway does not answer: Automatic is written as soon as it does.');
    expect(plant().remoteEms).toBe(1);
    clock.advance(INTERVAL);
    await poll();
    expect(plant().remoteEms).toBe(0);
  });
});

describe('follow the price', () => {
  it('applies the price plan step for now, and the next step when it comes; the mode stays the schedule', async () => {
    const start = clock.now();
    // A plan from the price book (price-plan.ts): charge for a minute, then hold.
    planStep = (at) =>
      at < start + 60_000
        ? { key: 'charge', mode: { ...charge, end: { kind: 'time', at: new Date(start + 60_000).toISOString() } }, reason: 'charge 0.1 kWh: the cheapest hours before the 17:00 peak' }
        : { key: 'hold', mode: { mode: 'hold', end: { kind: 'none' } }, reason: 'hold: keep the charge for the dearest hours' };
    await controller.setMode({ mode: 'schedule' }, 'owner');
    await pollsFor(INTERVAL);
    expect(plant()).toMatchObject({ remoteEms: 1, controlMode: 3, chargeLimitW: 3000 });
    expect(audit.latest(1)[0]).toMatchObject({ kind: 'write', by: 'plan', reason: 'charge 0.1 kWh: the cheapest hours before the 17:00 peak' });
    await pollsFor(60_000);
    expect(plant()).toMatchObject({ remoteEms: 1, controlMode: 2, dischargeLimitW: 0, chargeLimitW: 5000 });
    expect(controller.status().mode.mode).toBe('schedule');
  });

  it('in a dry run the plan acts on nothing', async () => {
    settings = { ...settings, dryRun: true };
    planStep = () => ({ key: 'charge', mode: charge, reason: 'charge: the cheapest hours' });
    await controller.setMode({ mode: 'schedule' }, 'owner');
    await pollsFor(30_000);
    expect(modbusWrites()).toHaveLength(0);
    expect(audit.latest(1)[0]).toMatchObject({ kind: 'dry-run', by: 'plan' });
  });
});

describe('turning control off', () => {
  it('puts the plant back to Automatic at the next reading', async () => {
    await controller.setMode(charge, 'owner');
    settings = { ...settings, enabled: false };
    await pollsFor(INTERVAL);
    expect(plant()).toMatchObject({ remoteEms: 0, chargeLimitW: 5000 });
    expect(audit.latest(1)[0]).toMatchObject({ kind: 'write', by: 'rail', reason: expect.stringContaining('battery control was turned off') });
  });
});
