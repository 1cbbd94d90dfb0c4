import { afterEach, describe, expect, it } from 'vitest';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { BlockReader, planBlocks } from './block-reader.js';
import { createModbusConnection, type GatewayConnection } from './connection.js';
import { PlantReader } from './plant-reader.js';
import { PLANT_REGISTERS, PLANT_UNIT } from './registers.js';

let sim: GatewaySimulator | undefined;
let conn: GatewayConnection | undefined;
afterEach(async () => {
  await conn?.close();
  await sim?.close();
  conn = sim = undefined;
});

async function connect(firmware: GatewaySimulator['firmware']) {
  sim = await startGatewaySimulator({ firmware });
  conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 });
  await conn.connect();
  return { sim, conn };
}

describe('block reads over Modbus TCP against the simulator', () => {
  it('plans the plant map as a handful of blocks instead of one read per register', () => {
    expect(PLANT_REGISTERS.length).toBeGreaterThan(40);
    expect(planBlocks(PLANT_REGISTERS).length).toBeLessThanOrEqual(5);
  });

  it('gives nulls, not errors, for V2.5+ registers on V1.8 firmware', async () => {
    const { conn } = await connect('V1.8');
    const reader = new BlockReader(PLANT_REGISTERS);
    const { values, failed } = await reader.read(conn.read, PLANT_UNIT);
    expect(failed).toEqual([]);
    expect(values.soc).toBeTypeOf('number');
    expect(values.gridPower).toBeTypeOf('number');
    for (const key of ['ratedCapacity', 'soh', 'lifetimePv', 'thirdPartyPvPower', 'totalLoadPower', 'pvToday', 'reserveSoc', 'smartLoadPower.1']) {
      expect(values[key], key).toBeNull();
    }
  });

  it('yields every other register of a block that spans one unsupported address (V2.8 lacks 30272)', async () => {
    const { conn, sim } = await connect('V2.8');
    const reader = new BlockReader(PLANT_REGISTERS);
    const first = await reader.read(conn.read, PLANT_UNIT);
    expect(first.values.pvToday).toBeNull();
    expect(first.values.totalLoadPower).toBeTypeOf('number');
    expect(first.values.generalLoadPower).toBeTypeOf('number');
    expect(first.values.lifetimeGridExport).toBeTypeOf('number');
    expect([...reader.unsupported]).toEqual(['pvToday']);
    // Steady state: the learnt plan makes no failing reads, so request counts stay flat.
    const before = sim.server.requestCount;
    await reader.read(conn.read, PLANT_UNIT);
    const perPoll = sim.server.requestCount - before;
    await reader.read(conn.read, PLANT_UNIT);
    expect(sim.server.requestCount - before).toBe(2 * perPoll);
    expect(perPoll).toBeLessThanOrEqual(6);
  });

  it('does not mark registers unsupported when the gateway answers another exception', async () => {
    const { conn, sim } = await connect('V2.9');
    const reader = new BlockReader(PLANT_REGISTERS);
    sim.server.faults.exception = 0x04;
    const { failed } = await reader.read(conn.read, PLANT_UNIT);
    expect(failed.length).toBe(PLANT_REGISTERS.length);
    expect(reader.unsupported.size).toBe(0);
    sim.server.faults.exception = null;
    const ok = await reader.read(conn.read, PLANT_UNIT);
    expect(ok.failed).toEqual([]);
    expect(ok.values.pvToday).toBeTypeOf('number');
  });

  it('enumerates inverters by unit id and reads their strings, 5+ included', async () => {
    const { conn } = await connect('V2.9');
    const reader = new PlantReader();
    const found = await reader.enumerate(conn.read, 1, 4);
    expect(found).toEqual([{ unitId: 2, model: 'SigenStor EC 15.0 TP AU', serial: 'SIGSIM0000000001', firmware: 'V100R001C00SPC112B107G' }]);
    const reading = await reader.read(conn.read);
    expect(reading.firmware).toBe('V2.9');
    const inv = reading.inverters[0]!.values;
    expect(inv.stringCount).toBe(6);
    expect(inv['stringVoltage.6']).toBeTypeOf('number');
  });

  it('detects each firmware generation from which probe registers answer', async () => {
    for (const fw of ['V1.8', 'V2.5', 'V2.6', 'V2.7', 'V2.8', 'V2.9'] as const) {
      const { conn: c, sim: s } = await connect(fw);
      const reading = await new PlantReader().read(c.read);
      expect(reading.firmware).toBe(fw);
      await c.close();
      await s.close();
      sim = undefined;
      conn = undefined;
    }
  });
});
