import net from 'node:net';

/**
 * The vendor's limit on one read (protocol V1.8–V2.9, section 6.1: "Quantity of registers 1~124").
 * Written here from the document, not imported from the client, so a wrong limit on the client side
 * fails against the simulator instead of passing on both.
 */
const VENDOR_MAX_READ_WORDS = 124;

/**
 * A minimal Modbus TCP server (MBAP framing, function codes 0x03 and 0x04, and 0x06 / 0x10 writes
 * when given a sink) with fault injection,
 * for the gateway simulator. Written on `net` rather than modbus-serial's ServerTCP because tests
 * need to drop sockets, stop answering and route per unit id exactly as the real gateway does.
 */
/**
 * Answers one read: the registers, an exception, `null` for "no device at this unit id" (exception
 * 0x0B, as some gateways answer) or `'silent'` to send no reply at all (as many gateways do).
 */
export type RegisterSource = (unit: number, table: 'input' | 'holding', address: number, words: number) => number[] | { exception: number } | null | 'silent';

/**
 * Executes one write of holding registers (FC 0x06 one word, 0x10 several): `null` when done (the
 * reply echoes the request), or as for a read an exception, 0x0B for no device or `'silent'`.
 */
export type RegisterSink = (unit: number, address: number, words: number[]) => null | { exception: number } | 'no-device' | 'silent';

export interface Faults {
  /** Stop answering requests (connections stay open). */
  hang: boolean;
  /** Delay every reply by this many ms. */
  delayMs: number;
  /** Answer every request with this exception code (e.g. 0x04). */
  exception: number | null;
}

export interface ModbusServer {
  readonly port: number;
  readonly host: string;
  /** Requests answered or swallowed since start (or the last `resetCount`). */
  readonly requestCount: number;
  /** The largest quantity of registers a read asked for since start (or the last `resetCount`), refused or not. */
  readonly largestRead: number;
  /** Client connections accepted since start (the poller keeps one open; battery control opens one per operation). */
  readonly connectionCount: number;
  resetCount(): void;
  faults: Faults;
  /** Destroy every open client socket (the server keeps listening). */
  dropConnections(): void;
  close(): Promise<void>;
}

export interface ModbusServerOptions {
  host?: string;
  port?: number;
  source: RegisterSource;
  /** Holding-register writes; without it every write answers exception 0x01 (illegal function). */
  sink?: RegisterSink;
  /**
   * Most registers one read may ask for; a larger read answers exception 0x03 (illegal data value),
   * as a gateway enforcing the vendor's limit does. Default 124 (the vendor's protocol, section 6.1).
   */
  maxReadWords?: number;
}

export async function startModbusServer(opts: ModbusServerOptions): Promise<ModbusServer> {
  const host = opts.host ?? '127.0.0.1';
  const maxReadWords = opts.maxReadWords ?? VENDOR_MAX_READ_WORDS;
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let requestCount = 0;
  let largestRead = 0;
  let connectionCount = 0;
  const faults: Faults = { hang: false, delayMs: 0, exception: null };

  const server = net.createServer((socket) => {
    connectionCount++;
    sockets.add(socket);
    socket.setNoDelay(true);
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 7) {
        const length = buf.readUInt16BE(4);
        if (buf.length < 6 + length) break;
        const frame = buf.subarray(0, 6 + length);
        buf = buf.subarray(6 + length);
        handle(socket, frame);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });

  const handle = (socket: net.Socket, frame: Buffer) => {
    requestCount++;
    const tid = frame.readUInt16BE(0);
    const unit = frame.readUInt8(6);
    const fc = frame.readUInt8(7);
    if (faults.hang || unit === 0) return; // unit 0 is broadcast: never replies
    let pdu: Buffer;
    if (faults.exception !== null) pdu = Buffer.from([fc | 0x80, faults.exception]);
    else if ((fc === 0x06 || fc === 0x10) && opts.sink) {
      const reply = writeReply(frame, fc, opts.sink);
      if (reply === 'silent') return;
      pdu = reply;
    } else if (fc !== 0x03 && fc !== 0x04) pdu = Buffer.from([fc | 0x80, 0x01]);
    else {
      const address = frame.readUInt16BE(8);
      const words = frame.readUInt16BE(10);
      largestRead = Math.max(largestRead, words);
      const result = words < 1 || words > maxReadWords ? { exception: 0x03 } : opts.source(unit, fc === 0x04 ? 'input' : 'holding', address, words);
      if (result === 'silent') return;
      if (result === null) pdu = Buffer.from([fc | 0x80, 0x0b]);
      else if (!Array.isArray(result)) pdu = Buffer.from([fc | 0x80, result.exception]);
      else {
        pdu = Buffer.alloc(2 + 2 * words);
        pdu.writeUInt8(fc, 0);
        pdu.writeUInt8(2 * words, 1);
        result.forEach((w, i) => pdu.writeUInt16BE(w & 0xffff, 2 + 2 * i));
      }
    }
    const mbap = Buffer.alloc(7);
    mbap.writeUInt16BE(tid, 0);
    mbap.writeUInt16BE(0, 2);
    mbap.writeUInt16BE(pdu.length + 1, 4);
    mbap.writeUInt8(unit, 6);
    const reply = Buffer.concat([mbap, pdu]);
    if (faults.delayMs > 0) {
      const t = setTimeout(() => {
        timers.delete(t);
        if (!socket.destroyed) socket.write(reply);
      }, faults.delayMs);
      timers.add(t);
    } else socket.write(reply);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    host,
    get connectionCount() {
      return connectionCount;
    },
    get requestCount() {
      return requestCount;
    },
    get largestRead() {
      return largestRead;
    },
    resetCount() {
      requestCount = 0;
      largestRead = 0;
    },
    faults,
    dropConnections() {
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Executes a write request (0x06 or 0x10) and builds its reply PDU: the echo, or an exception. */
function writeReply(frame: Buffer, fc: number, sink: RegisterSink): Buffer | 'silent' {
  const address = frame.readUInt16BE(8);
  let words: number[];
  if (fc === 0x06) words = [frame.readUInt16BE(10)];
  else {
    const quantity = frame.readUInt16BE(10);
    const bytes = frame.length > 12 ? frame.readUInt8(12) : -1;
    // Modbus: 1..123 registers, the byte count twice the quantity and all of it present.
    if (quantity < 1 || quantity > 123 || bytes !== 2 * quantity || frame.length !== 13 + bytes) return Buffer.from([fc | 0x80, 0x03]);
    words = Array.from({ length: quantity }, (_, i) => frame.readUInt16BE(13 + 2 * i));
  }
  const result = sink(frame.readUInt8(6), address, words);
  if (result === 'silent') return 'silent';
  if (result === 'no-device') return Buffer.from([fc | 0x80, 0x0b]);
  if (result !== null) return Buffer.from([fc | 0x80, result.exception]);
  // The reply echoes the address and the value (0x06) or the quantity (0x10).
  const out = Buffer.alloc(5);
  out.writeUInt8(fc, 0);
  out.writeUInt16BE(address, 1);
  out.writeUInt16BE(fc === 0x06 ? words[0]! : words.length, 3);
  return out;
}
