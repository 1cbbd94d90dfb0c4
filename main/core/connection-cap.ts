import type { Server, Socket } from 'node:net';
import type { Logger } from './logger.js';

/**
 * Most TCP connections one client address may hold open on one HTTP server at once. A browser keeps
 * about 6 per host and port, a dashboard's event stream is one more, the tray's windows a few: 64
 * leaves a household's worth of room and stops one host from taking every file descriptor (at the
 * common 1,024 / 4,096 descriptor limits, 16 or 64 such hosts would be needed instead of one).
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 64;

/** `::ffff:192.168.1.5` and `192.168.1.5` are the same client. */
export function clientAddress(address: string | undefined): string {
  if (!address) return '';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * Caps the connections each client address holds open on `server`: one beyond `max` is destroyed
 * as it arrives (before any byte is read), so other addresses still connect. One warn line when an
 * address reaches the cap; the next only after it went back below it.
 */
export function capConnectionsPerAddress(server: Server, opts: { max: number; logger: Logger }): { open(address: string): number } {
  const open = new Map<string, number>();
  const warned = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket.remoteAddress);
    const count = open.get(address) ?? 0;
    if (count >= opts.max) {
      if (!warned.has(address)) {
        warned.add(address);
        opts.logger.warn({ address, max: opts.max }, 'too many connections from one address: further ones are refused until some close');
      }
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
      if (left < opts.max) warned.delete(address);
    });
  });
  return { open: (address) => open.get(clientAddress(address)) ?? 0 };
}
