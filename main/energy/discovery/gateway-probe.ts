import { ModbusException, type ReadFn } from '../gateway/block-reader.js';
import type { ConnectionFactory, GatewayConnection } from '../gateway/connection.js';
import { decodeRegister } from '../gateway/decode.js';
import { INVERTER_IDENTITY, PLANT_REGISTERS, PLANT_UNIT, VERSION_PROBES, type Firmware } from '../gateway/registers.js';

const SOC = PLANT_REGISTERS.find((r) => r.key === 'soc')!;
const MODEL = INVERTER_IDENTITY.find((r) => r.key === 'model')!;

export type GatewayTestResult =
  | { ok: true; host: string; port: number; soc: number; model: string | null; firmware: Firmware; ms: number }
  | { ok: false; host: string; port: number; error: string; ms: number };

export interface ProbeOptions {
  host: string;
  port: number;
  /** Reply timeout per request. */
  timeoutMs: number;
  /** Unit ids probed for an inverter model, inclusive. */
  inverterUnits: { from: number; to: number };
  /** The whole test answers within this budget. */
  budgetMs?: number;
}

class OutOfTime extends Error {}

/** Runs `fn` but gives up (rejects with OutOfTime) at `deadline` (performance.now() ms). */
function before<T>(deadline: number, fn: () => Promise<T>): Promise<T> {
  const left = deadline - performance.now();
  if (left <= 0) return Promise.reject(new OutOfTime());
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    fn(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OutOfTime()), left);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Battery state of charge (30014 on unit 247), percent. */
export async function readSoc(read: ReadFn): Promise<number> {
  return decodeRegister(SOC, await read(SOC.table, PLANT_UNIT, SOC.address, SOC.words)) as number;
}

/** The protocol generation: the newest version probe register that answers (V1.8 when none does). */
export async function probeFirmware(read: ReadFn): Promise<Firmware> {
  for (const [address, version] of VERSION_PROBES) {
    try {
      await read('input', PLANT_UNIT, address, 1);
      return version;
    } catch (err) {
      if (!(err instanceof ModbusException)) throw err;
    }
  }
  return 'V1.8';
}

/** The first inverter model found on a unit id in range (30500 on the inverter's own unit). */
export async function probeModel(read: ReadFn, from: number, to: number, deadline: number): Promise<string | null> {
  for (let unit = Math.max(1, from); unit <= Math.min(246, to); unit++) {
    try {
      const model = decodeRegister(MODEL, await before(deadline, () => read(MODEL.table, unit, MODEL.address, MODEL.words)));
      if (typeof model === 'string' && model.length > 0) return model;
    } catch (err) {
      if (err instanceof OutOfTime) return null;
      // No device on this unit id (exception or timeout): try the next.
    }
  }
  return null;
}

/**
 * Tests one gateway on a connection of its own (the live one is not touched): connect, read the
 * SOC, detect the firmware generation and find an inverter model. Never throws: a failure is a result.
 */
export async function testGateway(opts: ProbeOptions, connect: ConnectionFactory): Promise<GatewayTestResult> {
  const { host, port } = opts;
  const t0 = performance.now();
  const deadline = t0 + (opts.budgetMs ?? 5000);
  const ms = () => Math.round(performance.now() - t0);
  let conn: GatewayConnection | null = null;
  try {
    conn = connect({ host, port, timeoutMs: opts.timeoutMs, connectTimeoutMs: Math.min(2000, opts.budgetMs ?? 5000) });
    const c = conn;
    await before(deadline, () => c.connect());
    const soc = await before(deadline, () => readSoc(c.read));
    const firmware = await before(deadline, () => probeFirmware(c.read));
    const model = await probeModel(c.read, opts.inverterUnits.from, opts.inverterUnits.to, deadline);
    return { ok: true, host, port, soc, model, firmware, ms: ms() };
  } catch (err) {
    const error = describe(err, host, port);
    return { ok: false, host, port, error, ms: ms() };
  } finally {
    await conn?.close().catch(() => undefined);
  }
}

/** Confirms a host is a gateway: connects and reads the SOC; null when it does not answer that. */
export async function confirmGateway(host: string, port: number, connect: ConnectionFactory, timeoutMs = 1000): Promise<number | null> {
  const conn = connect({ host, port, timeoutMs, connectTimeoutMs: timeoutMs });
  try {
    const deadline = performance.now() + 2 * timeoutMs;
    await before(deadline, () => conn.connect());
    return await before(deadline, () => readSoc(conn.read));
  } catch {
    return null;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/**
 * The test's answer in plain words. A refused connection, a silent host and a service that does
 * not speak Modbus all get the same answer, so the route cannot be used to map which ports are
 * open on the LAN; only a Modbus device that answers with an exception is told apart.
 */
function describe(err: unknown, host: string, port: number): string {
  if (err instanceof ModbusException) return `${host}:${port} answered Modbus but not the battery register (${err.message}); is it the energy gateway?`;
  const msg = (err as Error)?.message || String(err);
  if (/ENOTFOUND|EAI_AGAIN/.test(msg)) return `The host name ${host} could not be resolved.`;
  return `no Modbus answer from ${host}:${port}; check the address, that the gateway is on this network and that Modbus TCP is enabled on it.`;
}
