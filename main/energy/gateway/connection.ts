import ModbusModule from 'modbus-serial';
import { ModbusException, type ReadFn } from './block-reader.js';

/** One TCP connection to a gateway: the narrow interface the poller and the gateway test use. */
export interface GatewayConnection {
  connect(): Promise<void>;
  read: ReadFn;
  close(): Promise<void>;
  readonly isOpen: boolean;
  /** Number of Modbus requests sent on this connection (for round-trip figures). */
  readonly requests: number;
}

export interface ConnectionOptions {
  host: string;
  port: number;
  /** How long to wait for a reply (the vendor allows up to 1000 ms). */
  timeoutMs: number;
  connectTimeoutMs?: number;
}

export type ConnectionFactory = (opts: ConnectionOptions) => GatewayConnection;

/** Errors that mean the link itself is unusable (as opposed to a Modbus exception reply). */
export class TransportError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'TransportError';
  }
}

// modbus-serial is CommonJS: its class is module.exports (and also .default).
const ModbusRTU = ModbusModule.default;

/** modbus-serial over TCP, requests strictly one at a time. */
export const createModbusConnection: ConnectionFactory = (opts) => {
  const client = new ModbusRTU();
  let requests = 0;
  let open = false;
  let queue: Promise<unknown> = Promise.resolve();
  // Reads waiting on the socket; closing rejects them so nobody awaits a destroyed link forever.
  const pending = new Set<(err: Error) => void>();

  /** Settles with the request, or rejects on close or after a guard past the reply timeout. */
  const guarded = <T>(p: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const fail = (err: Error) => {
        clearTimeout(timer);
        pending.delete(fail);
        reject(err);
      };
      const timer = setTimeout(() => fail(new TransportError('no reply from gateway')), opts.timeoutMs + 500);
      pending.add(fail);
      p.then(
        (v) => {
          clearTimeout(timer);
          pending.delete(fail);
          resolve(v);
        },
        (e) => fail(e as Error),
      );
    });

  const read: ReadFn = (table, unit, address, words) => {
    const run = async () => {
      if (!open) throw new TransportError('not connected');
      requests++;
      client.setID(unit);
      try {
        const res = await guarded(table === 'input' ? client.readInputRegisters(address, words) : client.readHoldingRegisters(address, words));
        return res.data;
      } catch (err) {
        const e = err as { modbusCode?: number; message?: string; errno?: string };
        if (typeof e.modbusCode === 'number') throw new ModbusException(e.modbusCode);
        if (err instanceof TransportError) throw err;
        throw new TransportError(e.message ?? 'Modbus transport error', err);
      }
    };
    const p = queue.then(run, run);
    queue = p.catch(() => undefined);
    return p;
  };

  return {
    get isOpen() {
      return open && client.isOpen;
    },
    get requests() {
      return requests;
    },
    read,
    async connect() {
      const connectTimeout = opts.connectTimeoutMs ?? Math.max(opts.timeoutMs, 2000);
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          client.connectTCP(opts.host, { port: opts.port }),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new TransportError(`connect to ${opts.host}:${opts.port} timed out`)), connectTimeout);
          }),
        ]);
      } catch (err) {
        client.destroy(() => undefined);
        throw err instanceof TransportError ? err : new TransportError(`connect to ${opts.host}:${opts.port} failed: ${(err as Error).message}`, err);
      } finally {
        clearTimeout(timer);
      }
      client.setTimeout(opts.timeoutMs);
      open = true;
      client.on('close', () => {
        open = false;
      });
    },
    async close() {
      open = false;
      for (const fail of [...pending]) fail(new TransportError('connection closed'));
      await new Promise<void>((resolve) => {
        client.destroy(() => resolve());
        setTimeout(resolve, 200).unref();
      });
    },
  };
};
