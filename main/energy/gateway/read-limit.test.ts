import { afterEach, describe, expect, it } from 'vitest';
import type { LiveState } from '../live-state.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { startEnergyHarness, waitForState } from '../testing/harness.js';
import { BlockReader } from './block-reader.js';
import { createModbusConnection, type GatewayConnection } from './connection.js';
import { PlantReader } from './plant-reader.js';
import { PLANT_REGISTERS, PLANT_UNIT } from './registers.js';

/**
 * The vendor's protocol (V1.8–V2.9, section 6.1) allows 1 to 124 registers a read; a gateway that
 * enforces it answers exception 0x03 (illegal data value) to a 125-word read. The simulator does.
 */

type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;
let h: Harness | undefined;
let sim: GatewaySimulator | undefined;
let conn: GatewayConnection | undefined;
afterEach(async () => {
  await h?.stop();
  await conn?.close();
  await sim?.close();
  h = sim = conn = undefined;
});

// Noon on a frozen simulated clock: the model's counters and battery hold still between reads.
const NOON = new Date('2026-06-01T12:00:00').getTime();
const SIXTEEN_SMART_LOADS = Array.from({ length: 16 }, (_, i) => ({ slot: i + 1, watts: 100 * (i + 1) }));

async function connectTo(opts: Parameters<typeof startGatewaySimulator>[0]) {
  sim = await startGatewaySimulator(opts);
  conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 });
  await conn.connect();
  return { sim, conn };
}

describe('reads within the vendor limit of 124 registers', () => {
  it('the simulator refuses a 125-word read with 0x03 and answers a 124-word one', async () => {
    const { conn } = await connectTo({ firmware: 'V2.9' });
    await expect(conn.read('input', PLANT_UNIT, 30000, 125)).rejects.toMatchObject({ exceptionCode: 0x03 });
    expect(await conn.read('input', PLANT_UNIT, 30000, 124)).toHaveLength(124);
  });

  it('the live path publishes every field from the first poll through a gateway that refuses 125-word reads', async () => {
    h = await startEnergyHarness({ sim: { firmware: 'V2.9', now: () => NOON, smartLoads: SIXTEEN_SMART_LOADS } });
    const first = await waitForState(h.service, (s) => s.connected);
    const model = h.sim.plant.plantValues();
    const state = (await (await fetch(`${h.service.url}/api/state`)).json()) as LiveState;
    // The first published reading already has everything: no poll of nulls while a plan is learnt.
    expect(state.lastUpdated).toBe(first.lastUpdated);
    for (const [name, v] of Object.entries({ grid: state.power.grid, solar: state.power.solar, solarNative: state.power.solarNative, battery: state.power.battery, home: state.power.home })) {
      expect(v, name).toBeTypeOf('number');
    }
    expect(state.battery).toEqual({
      soc: model.soc,
      soh: 98.7,
      ratedCapacityKwh: 16.12,
      reserveSoc: 10,
      energyRemainingKwh: model.energyRemaining,
      energyChargeableKwh: model.energyChargeable,
    });
    expect(state.energy.lifetime).toEqual({
      pv: model.lifetimePv,
      consumed: model.lifetimeConsumed,
      gridImport: model.lifetimeGridImport,
      gridExport: model.lifetimeGridExport,
      batteryCharge: model.lifetimeBatteryCharge,
      batteryDischarge: model.lifetimeBatteryDischarge,
    });
    expect(state.smartLoads.map((l) => l.index)).toEqual(SIXTEEN_SMART_LOADS.map((l) => l.slot));
    for (const load of state.smartLoads) expect(load.lifetimeEnergy, `smart load ${load.index}`).toBe(model[`smartLoadEnergy.${load.index}`]);
    // Nothing over the limit went on the wire.
    expect(h.sim.server.largestRead).toBeLessThanOrEqual(124);
  });

  it('the plant reader reads every plant register, the running state included, and never asks for more than 124', async () => {
    const { sim, conn } = await connectTo({ firmware: 'V2.9', now: () => NOON, smartLoads: SIXTEEN_SMART_LOADS });
    const reading = await new PlantReader().readPlant(conn.read);
    expect(reading.failed).toEqual([]);
    const model = sim.plant.plantValues();
    for (const key of ['runningState', 'soc', 'soh', 'ratedCapacity', 'lifetimePv', 'lifetimeGridImport', 'smartLoadEnergy.16', 'reserveSoc']) {
      expect(reading.plant[key], key).toBe(model[key]);
    }
    for (const r of PLANT_REGISTERS) expect(reading.plant[r.key], r.key).toBeTypeOf('number');
    expect(sim.server.largestRead).toBeGreaterThan(0);
    expect(sim.server.largestRead).toBeLessThanOrEqual(124);
  });
});

describe('a gateway that answers 0x03 to a block read', () => {
  it('splits the block, reads every register and keeps the split plan (no failing read on later polls)', async () => {
    // A gateway stricter than its documentation: 0x03 for any read over 40 registers.
    const { sim, conn } = await connectTo({ firmware: 'V2.9', now: () => NOON, maxReadWords: 40 });
    const reader = new BlockReader(PLANT_REGISTERS);
    const first = await reader.read(conn.read, PLANT_UNIT);
    expect(first.failed).toEqual([]);
    expect([...reader.unsupported]).toEqual([]);
    const model = sim.plant.plantValues();
    for (const r of PLANT_REGISTERS) expect(first.values[r.key], r.key).toBeTypeOf('number');
    for (const key of ['runningState', 'soc', 'lifetimeGridImport', 'smartLoadEnergy.1', 'pvToday', 'dischargeCutoffSoc']) expect(first.values[key], key).toBe(model[key]);

    // Learnt: a merge that was refused is not tried again, so polls settle at a fixed request count
    // with nothing over the gateway's limit.
    await reader.read(conn.read, PLANT_UNIT);
    sim.server.resetCount();
    const counts: number[] = [];
    for (let poll = 0; poll < 5; poll++) {
      const before = sim.server.requestCount;
      const { failed } = await reader.read(conn.read, PLANT_UNIT);
      expect(failed).toEqual([]);
      counts.push(sim.server.requestCount - before);
    }
    expect(new Set(counts).size).toBe(1);
    expect(sim.server.largestRead).toBeLessThanOrEqual(40);
  });

  it('does not take a 0x03 to a single register as "unsupported"', async () => {
    const { sim, conn } = await connectTo({ firmware: 'V2.9' });
    const reader = new BlockReader(PLANT_REGISTERS.filter((r) => r.key === 'soc'));
    sim.server.faults.exception = 0x03;
    const refused = await reader.read(conn.read, PLANT_UNIT);
    expect(refused.failed).toEqual(['soc']);
    expect(reader.unsupported.size).toBe(0);
    sim.server.faults.exception = null;
    expect((await reader.read(conn.read, PLANT_UNIT)).values.soc).toBeTypeOf('number');
  });

  it('does not adopt a remembered plan with a block over 124 registers', () => {
    const reader = new BlockReader(PLANT_REGISTERS);
    const plan = reader.learned();
    // An earlier version planned 30005..30129 (125 words) as one block.
    const wide = PLANT_REGISTERS.filter((r) => r.table === 'input' && r.address >= 30005 && r.address + r.words <= 30130).map((r) => r.key);
    const rest = plan.blocks.map((b) => b.filter((k) => !wide.includes(k))).filter((b) => b.length);
    expect(reader.adopt({ blocks: [wide, ...rest], unsupported: [], refused: [] })).toBe(false);
    expect(reader.learned()).toEqual(plan);
  });
});
