import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { createModbusConnection, TransportError, type GatewayConnection } from './connection.js';
import { PLANT_UNIT } from './registers.js';

let sim: GatewaySimulator | undefined;
let conn: GatewayConnection | undefined;
let raw: net.Server | undefined;
afterEach(async () => {
  await conn?.close();
  await sim?.close();
  await new Promise<void>((r) => (raw ? raw.close(() => r()) : r()));
  conn = sim = raw = undefined;
});

describe('the Modbus TCP connection', () => {
  it('takes a reply that arrived while this process was busy, instead of timing out (event-loop lag is ours, not the gateway\'s)', async () => {
    sim = await startGatewaySimulator({ firmware: 'V2.9' });
    conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 300 });
    await conn.connect();
    const pending = conn.read('input', PLANT_UNIT, 30014, 1);
    // Hold the event loop well past the reply timeout, as a heavy synchronous job would.
    const end = Date.now() + 900;
    while (Date.now() < end) {
      /* busy */
    }
    const words = await pending;
    expect(words).toHaveLength(1);
    expect(conn.isOpen).toBe(true);
  });

  it('gives up on a silent unit id after the probe\'s own timeout and keeps the connection usable', async () => {
    sim = await startGatewaySimulator({ firmware: 'V2.9', absentUnits: 'silent' });
    conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 5000 });
    await conn.connect();
    const t0 = Date.now();
    const err = await conn.read('input', 9, 30500, 15, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).timedOut).toBe(true);
    // Far below the 5 s reply timeout of normal reads.
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(conn.isOpen).toBe(true);
    expect(await conn.read('input', PLANT_UNIT, 30014, 1)).toHaveLength(1);
  });

  it('closes the link on a reply that is not Modbus (hostile peer), and rejects the read', async () => {
    raw = net.createServer((s) => s.on('data', () => s.write(Buffer.alloc(300, 0xff))));
    await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', () => r()));
    conn = createModbusConnection({ host: '127.0.0.1', port: (raw.address() as net.AddressInfo).port, timeoutMs: 2000 });
    await conn.connect();
    await expect(conn.read('input', PLANT_UNIT, 30014, 1)).rejects.toThrow(/malformed|oversized/);
    expect(conn.isOpen).toBe(false);
  });
});
