import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { assertLoopback } from './loopback.js';

export interface SsdpResponder {
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly port: number;
  readonly address: string;
  /** M-SEARCH requests received. */
  searches(): number;
}

/**
 * Answers unicast M-SEARCH on loopback with one reply per advertised device description, as devices
 * on a LAN answer a multicast search. Never joins a multicast group.
 */
export function createSsdpResponder(opts: { locations: () => string[]; host?: string; port?: number }): SsdpResponder {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host);
  const socket = dgram.createSocket('udp4');
  let port = 0;
  let searches = 0;
  socket.on('message', (msg, rinfo) => {
    const text = msg.toString('utf8');
    if (!text.startsWith('M-SEARCH')) return;
    searches++;
    const st = /^ST:\s*(.+)$/im.exec(text)?.[1]?.trim() ?? 'ssdp:all';
    for (const [i, location] of opts.locations().entries()) {
      const reply = [
        'HTTP/1.1 200 OK',
        'CACHE-CONTROL: max-age=1800',
        'EXT:',
        `LOCATION: ${location}`,
        'SERVER: Linux/3.x UPnP/1.0 Sim/1.0',
        `ST: ${st === 'ssdp:all' ? 'upnp:rootdevice' : st}`,
        `USN: uuid:sim-device-${i}::upnp:rootdevice`,
        '',
        '',
      ].join('\r\n');
      socket.send(reply, rinfo.port, rinfo.address);
    }
  });
  return {
    async start() {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(opts.port ?? 0, host, () => resolve());
      });
      port = (socket.address() as AddressInfo).port;
    },
    async stop() {
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
    get port() {
      return port;
    },
    address: host,
    searches: () => searches,
  };
}
