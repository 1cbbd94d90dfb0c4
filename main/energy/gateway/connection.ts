import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { ModbusException, type ReadFn } from './block-reader.js';
import type { Table } from './registers.js';

/** One TCP connection to a gateway: the narrow interface the poller and the gateway test use. */
export interface GatewayConnection {
  connect(): Promise<void>;
  read: ReadFn;
  /** Writes holding registers (FC 0x06 for one word, 0x10 for several); resolves when the device echoed the write. */
  write?: WriteFn;
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
  /**
   * The outbound gate's check of `host` (a LAN device): resolves to the address to connect to, or
   * rejects when the host is not on the home network. Without it, `host` is connected as given.
   */
  resolve?: (host: string) => Promise<string>;
}

/** Writes `words` to the holding registers from `address` on `unit`; rejects with a ModbusException or a transport error. */
export type WriteFn = (unit: number, address: number, words: readonly number[]) => Promise<void>;

export type ConnectionFactory = (opts: ConnectionOptions) => GatewayConnection;

/** Errors that mean the link itself is unusable (as opposed to a Modbus exception reply). */
export class TransportError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
    /** True when the request simply got no reply in time (the socket is still open). */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** A reply frame is at most 7 (MBAP) + 2 + 250 bytes; anything larger is not Modbus. */
const MAX_FRAME = 260;
/** A timer that fires later than this was held up by our own process, not by the gateway. */
const LAG_TOLERANCE_MS = 25;

/**
 * Calls `onExpire` once `ms` of our own attention have passed. When the timer fires late (the event
 * loop was busy with our own work, e.g. a heavy history query), the lost time is granted again, and
 * the final check waits one more loop turn so a reply already sitting in the socket is read first:
 * a late reply caused by this process never counts as a gateway timeout.
 */
export function lagAwareTimeout(ms: number, onExpire: () => void): () => void {
  let due = performance.now() + ms;
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  const check = () => {
    timer = null;
    const now = performance.now();
    const late = now - due;
    if (late > LAG_TOLERANCE_MS) {
      due = now + Math.min(late, ms);
      timer = setTimeout(check, due - now);
      return;
    }
    immediate = setImmediate(onExpire);
  };
  timer = setTimeout(check, ms);
  return () => {
    if (timer) clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
    timer = null;
    immediate = null;
  };
}

interface Pending {
  tid: number;
  unit: number;
  fc: number;
  words: number;
  /** A write: the reply must echo these 4 bytes (address and value or quantity). */
  echo?: Buffer;
  resolve(data: number[]): void;
  reject(err: Error): void;
  cancelTimer(): void;
}

/**
 * A small Modbus TCP client (function codes 0x03 and 0x04; 0x06 and 0x10 writes) over `net`, requests strictly one at a
 * time. Every reply is bounded (frame size, byte count, transaction id, unit and function checked);
 * a reply for a request already given up on is ignored. A read may pass its own, shorter timeout
 * (probes of unit ids that may have no device); a timeout never closes the socket by itself.
 */
export const createModbusConnection: ConnectionFactory = (opts) => {
  let socket: net.Socket | null = null;
  let open = false;
  let requests = 0;
  let tid = 0;
  let current: Pending | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let buf: Buffer = Buffer.alloc(0);
  /** Set by close(): a connect still resolving its address then gives up instead of opening a socket. */
  let closed = false;

  const failCurrent = (err: Error) => {
    const p = current;
    current = null;
    if (p) {
      p.cancelTimer();
      p.reject(err);
    }
  };

  const shutdown = (reason: string) => {
    open = false;
    buf = Buffer.alloc(0);
    failCurrent(new TransportError(reason));
    socket?.destroy();
  };

  const onData = (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    while (buf.length >= 7) {
      const protocol = buf.readUInt16BE(2);
      const length = buf.readUInt16BE(4);
      if (protocol !== 0 || length < 2 || 6 + length > MAX_FRAME) return shutdown('gateway sent a malformed Modbus frame');
      if (buf.length < 6 + length) break;
      const frame = buf.subarray(0, 6 + length);
      buf = buf.subarray(6 + length);
      handleFrame(frame);
    }
    if (buf.length > MAX_FRAME) shutdown('gateway sent an oversized Modbus frame');
  };

  const handleFrame = (frame: Buffer) => {
    const p = current;
    // A late reply to a request we already gave up on (or noise): ignore it.
    if (!p || frame.readUInt16BE(0) !== p.tid || frame.readUInt8(6) !== p.unit) return;
    const fc = frame.readUInt8(7);
    if (fc === (p.fc | 0x80) && frame.length >= 9) {
      current = null;
      p.cancelTimer();
      p.reject(new ModbusException(frame.readUInt8(8)));
      return;
    }
    if (p.echo) {
      current = null;
      p.cancelTimer();
      if (fc !== p.fc || frame.length !== 12 || !frame.subarray(8, 12).equals(p.echo)) p.reject(new TransportError('gateway reply does not match the write'));
      else p.resolve([]);
      return;
    }
    if (fc !== p.fc || frame.length < 9 || frame.readUInt8(8) !== 2 * p.words || frame.length !== 9 + 2 * p.words) {
      current = null;
      p.cancelTimer();
      p.reject(new TransportError('gateway reply does not match the request'));
      return;
    }
    const data = new Array<number>(p.words);
    for (let i = 0; i < p.words; i++) data[i] = frame.readUInt16BE(9 + 2 * i);
    current = null;
    p.cancelTimer();
    p.resolve(data);
  };

  /** A request's PDU after the unit id: a read (0x03/0x04) or a write (0x06/0x10). */
  const requestPdu = (op: { table: Table; address: number; words: number } | { address: number; values: readonly number[] }): { fc: number; pdu: Buffer; echo?: Buffer } => {
    if ('table' in op) {
      const pdu = Buffer.alloc(5);
      pdu.writeUInt8(op.table === 'input' ? 0x04 : 0x03, 0);
      pdu.writeUInt16BE(op.address, 1);
      pdu.writeUInt16BE(op.words, 3);
      return { fc: pdu.readUInt8(0), pdu };
    }
    const single = op.values.length === 1;
    const pdu = Buffer.alloc(single ? 5 : 6 + 2 * op.values.length);
    pdu.writeUInt8(single ? 0x06 : 0x10, 0);
    pdu.writeUInt16BE(op.address, 1);
    if (single) pdu.writeUInt16BE(op.values[0]! & 0xffff, 3);
    else {
      pdu.writeUInt16BE(op.values.length, 3);
      pdu.writeUInt8(2 * op.values.length, 5);
      op.values.forEach((v, i) => pdu.writeUInt16BE(v & 0xffff, 6 + 2 * i));
    }
    const echo = Buffer.alloc(4);
    echo.writeUInt16BE(op.address, 0);
    echo.writeUInt16BE(single ? op.values[0]! & 0xffff : op.values.length, 2);
    return { fc: pdu.readUInt8(0), pdu, echo };
  };

  const send = (unit: number, op: Parameters<typeof requestPdu>[0], timeoutMs: number): Promise<number[]> =>
    new Promise<number[]>((resolve, reject) => {
      if (!open || !socket) return reject(new TransportError('not connected'));
      requests++;
      tid = (tid + 1) & 0xffff;
      const { fc, pdu, echo } = requestPdu(op);
      const mbap = Buffer.alloc(7);
      mbap.writeUInt16BE(tid, 0);
      mbap.writeUInt16BE(0, 2);
      mbap.writeUInt16BE(pdu.length + 1, 4);
      mbap.writeUInt8(unit, 6);
      const req = Buffer.concat([mbap, pdu]);
      const words = 'words' in op ? op.words : 0;
      const pending: Pending = { tid, unit, fc, words, echo, resolve, reject, cancelTimer: () => undefined };
      pending.cancelTimer = lagAwareTimeout(timeoutMs, () => {
        if (current !== pending) return;
        current = null;
        reject(new TransportError(`request timed out: no reply from unit ${unit} within ${timeoutMs} ms`, undefined, true));
      });
      current = pending;
      socket.write(req);
    });

  const read: ReadFn = (table, unit, address, words, readOpts) => {
    const run = () => send(unit, { table, address, words }, readOpts?.timeoutMs ?? opts.timeoutMs);
    const p = queue.then(run, run);
    queue = p.catch(() => undefined);
    return p;
  };

  const write: WriteFn = (unit, address, values) => {
    if (unit === 0) return Promise.reject(new TransportError('unit 0 (broadcast) executes without answering: writes go to unit 247'));
    if (values.length < 1 || values.length > 123) return Promise.reject(new TransportError(`a write takes 1 to 123 registers, not ${values.length}`));
    const run = () => send(unit, { address, values }, opts.timeoutMs);
    const p = queue.then(run, run);
    queue = p.catch(() => undefined);
    return p.then(() => undefined);
  };

  return {
    get isOpen() {
      return open;
    },
    get requests() {
      return requests;
    },
    read,
    write,
    async connect() {
      const connectTimeout = opts.connectTimeoutMs ?? Math.max(opts.timeoutMs, 2000);
      let address = opts.host;
      if (opts.resolve) {
        try {
          address = await opts.resolve(opts.host);
        } catch (err) {
          throw new TransportError(`connect to ${opts.host}:${opts.port} refused: ${(err as Error).message}`, err);
        }
        if (closed) throw new TransportError(`connect to ${opts.host}:${opts.port} closed`);
      }
      return new Promise<void>((resolve, reject) => {
        const s = net.connect({ host: address, port: opts.port });
        socket = s;
        const timer = setTimeout(() => {
          s.destroy();
          reject(new TransportError(`connect to ${opts.host}:${opts.port} timed out`));
        }, connectTimeout);
        s.once('connect', () => {
          clearTimeout(timer);
          s.setNoDelay(true);
          s.setKeepAlive(true, 30_000);
          open = true;
          resolve();
        });
        s.on('data', onData);
        s.on('error', (err) => {
          clearTimeout(timer);
          if (!open) reject(new TransportError(`connect to ${opts.host}:${opts.port} failed: ${err.message}`, err));
          shutdown(`gateway connection error: ${err.message}`);
        });
        s.on('close', () => {
          clearTimeout(timer);
          if (!open) reject(new TransportError(`connect to ${opts.host}:${opts.port} closed`));
          shutdown('gateway closed the connection');
        });
      });
    },
    async close() {
      closed = true;
      shutdown('connection closed');
      socket = null;
    },
  };
};
