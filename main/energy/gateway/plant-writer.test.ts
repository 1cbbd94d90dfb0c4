import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { ModbusException } from './block-reader.js';
import { createModbusConnection, type GatewayConnection } from './connection.js';
import { PlantWriter, ReadBackMismatch } from './plant-writer.js';

/**
 * The guarded write path over Modbus TCP against the simulated gateway: control registers as the
 * vendor's protocol lists them (reference "Status and control registers"), read back with 0x03.
 */
let sim: GatewaySimulator;
let conn: GatewayConnection;
const bounds = { maxChargeW: 4000, maxDischargeW: 5000, minSoc: 10 };

beforeEach(async () => {
  // Midnight UTC: no sun, so the battery's flows are the controller's doing.
  const t = Date.UTC(2026, 5, 21, 0, 0);
  sim = await startGatewaySimulator({ now: () => t, timeZone: 'UTC', maxBatteryW: 5000 });
  conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 });
  await conn.connect();
});
afterEach(async () => {
  await conn.close();
  await sim.close();
});

const words = async (table: 'input' | 'holding', address: number, n: number) => conn.read(table, 247, address, n);

describe('the simulated gateway takes control writes as the protocol describes', () => {
  it('remote EMS on: 30003 reads 7; off again: the plant own mode (a custom mode 9 is not restored)', async () => {
    await sim.close();
    sim = await startGatewaySimulator({ timeZone: 'UTC', emsWorkMode: 9 });
    await conn.close();
    conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 });
    await conn.connect();
    expect(await words('input', 30003, 1)).toEqual([9]);
    await conn.write!(247, 40029, [1]);
    expect(await words('holding', 40029, 1)).toEqual([1]);
    expect(await words('input', 30003, 1)).toEqual([7]);
    await conn.write!(247, 40029, [0]);
    expect(await words('input', 30003, 1)).toEqual([0]);
  });

  it('a two-word limit in kW×1000 with FC 0x10 reads back the same; the rated power is 30068/30070', async () => {
    await conn.write!(247, 40032, [0, 3000]);
    expect(await words('holding', 40032, 2)).toEqual([0, 3000]);
    expect(await words('input', 30068, 4)).toEqual([0, 5000, 0, 5000]);
  });

  it('refuses a value outside the rated range with ILLEGAL DATA VALUE and keeps the old one', async () => {
    await expect(conn.write!(247, 40032, [0, 5001])).rejects.toMatchObject({ exceptionCode: 0x03 });
    await expect(conn.write!(247, 40031, [7])).rejects.toMatchObject({ exceptionCode: 0x03 });
    expect(await words('holding', 40032, 2)).toEqual([0, 5000]);
  });

  it('refuses half of a two-word register and an address that is not a control register (0x02)', async () => {
    await expect(conn.write!(247, 40033, [5])).rejects.toMatchObject({ exceptionCode: 0x02 });
    await expect(conn.write!(247, 40010, [5])).rejects.toMatchObject({ exceptionCode: 0x02 });
  });

  it('unit 0 never answers (the client refuses to send there); the SOC registers need V2.7', async () => {
    await expect(conn.write!(0, 40029, [1])).rejects.toThrow(/unit 0/);
    sim.firmware = 'V2.6';
    await expect(conn.write!(247, 40046, [200])).rejects.toMatchObject({ exceptionCode: 0x02 });
    sim.firmware = 'V2.9';
    await conn.write!(247, 40046, [200]);
    expect(await words('holding', 40046, 1)).toEqual([200]);
  });

  it('the plant obeys: mode 3 charges from the grid at the limit, 6 discharges, a discharge limit of 0 holds', async () => {
    await conn.write!(247, 40029, [1]);
    await conn.write!(247, 40032, [0, 3000]);
    await conn.write!(247, 40031, [3]);
    expect(sim.plant.flows.battery).toBe(3000);
    expect(sim.plant.flows.grid).toBeGreaterThan(3000);
    await conn.write!(247, 40031, [6]);
    expect(sim.plant.flows.battery).toBe(-5000);
    await conn.write!(247, 40031, [2]);
    await conn.write!(247, 40034, [0, 0]);
    expect(sim.plant.flows.battery).toBe(0);
    expect(sim.plant.control.startStopWrites).toBe(0);
  });

  it('caps the export at the grid point by curtailing PV', async () => {
    const noon = Date.UTC(2026, 5, 21, 12, 30);
    await sim.close();
    sim = await startGatewaySimulator({ now: () => noon, timeZone: 'UTC', initialSoc: 100 });
    await conn.close();
    conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 });
    await conn.connect();
    expect(sim.plant.flows.grid).toBeLessThan(-1000);
    await conn.write!(247, 40038, [0, 0]);
    expect(sim.plant.flows.grid).toBe(0);
  });
});

describe('the guarded write path', () => {
  const writer = () => new PlantWriter({ read: conn.read, write: conn.write! }, () => bounds);

  it('writes an allowed register and reads it back', async () => {
    const r = await writer().write('chargeLimitW', 2500);
    expect(r).toMatchObject({ address: 40032, value: 2500, readBack: 2500 });
    expect(sim.plant.control.values.chargeLimitW).toBe(2500);
  });

  it('refuses a value above the plant rating or the user bound before anything is written', async () => {
    const before = sim.plant.control.writes.length;
    await expect(writer().write('dischargeLimitW', 6000)).rejects.toMatchObject({ status: 400, field: 'dischargeLimitW', message: expect.stringContaining('rated discharging power (5000 W)') });
    await expect(writer().write('chargeLimitW', 4500)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('your charging bound (4000 W)') });
    await expect(writer().write('dischargeCutoffSoc', 5)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('lowest SOC') });
    await expect(writer().write('controlMode', 7)).rejects.toMatchObject({ status: 400 });
    // @ts-expect-error plant start/stop is not in the allow-list
    await expect(writer().write('startStop', 0)).rejects.toMatchObject({ code: 'not_allowed' });
    expect(sim.plant.control.writes.length).toBe(before);
    expect(sim.plant.control.startStopWrites).toBe(0);
  });

  it('a plant that refuses (export limit above its grid rating) surfaces as a Modbus exception', async () => {
    await expect(writer().write('exportLimitW', 20_000)).rejects.toBeInstanceOf(ModbusException);
  });

  it('reports a value that does not read back as written', async () => {
    const w = new PlantWriter(
      {
        read: conn.read,
        write: async (unit, address, values) => {
          await conn.write!(unit, address, values);
          sim.plant.control.revertExportLimit();
        },
      },
      () => bounds,
    );
    await expect(w.write('exportLimitW', 0)).rejects.toBeInstanceOf(ReadBackMismatch);
  });
});
