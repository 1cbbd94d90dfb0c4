import dgram from 'node:dgram';
import { waitOrAbort } from './abort-scope.js';

/**
 * Where a LAN search goes and which local address its socket binds: an injected dependency. In
 * production the target is a multicast group on the configured interface; tests and the demo send
 * unicast to a simulator on loopback.
 */
export interface UdpSearchTarget {
  /** Local address to bind (the interface); `0.0.0.0` lets the OS choose. */
  bindAddress: string;
  address: string;
  port: number;
  /** Interface address for outgoing multicast (production only). */
  multicastInterface?: string;
  /** How long replies are collected. */
  windowMs: number;
}

/**
 * Sends `messages` from a fresh UDP socket bound to the target's interface and hands each datagram
 * that comes back within the listening window (or until `signal` aborts) to `onReply`. When the
 * target is the protocol's multicast group, the socket multicasts with `ttl` on the chosen interface;
 * a broadcast search may broadcast.
 */
export async function udpSearch(
  target: UdpSearchTarget,
  opts: {
    /** The protocol's multicast group (SSDP, GDM); a search sent to it multicasts on the chosen interface. */
    multicastGroup?: string;
    /** A broadcast search (Jellyfin and Emby discovery to 255.255.255.255): the socket may broadcast. */
    broadcast?: boolean;
    ttl: number;
    messages: readonly Buffer[];
    onReply(msg: Buffer, from: string): void;
  },
  signal?: AbortSignal,
): Promise<void> {
  const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, target.bindAddress, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('error', () => undefined);
    socket.on('message', (msg, rinfo) => opts.onReply(msg, rinfo.address));
    if (opts.broadcast) socket.setBroadcast(true);
    if (opts.multicastGroup !== undefined && target.address === opts.multicastGroup) {
      socket.setMulticastTTL(opts.ttl);
      if (target.multicastInterface) socket.setMulticastInterface(target.multicastInterface);
    }
    for (const msg of opts.messages) {
      await new Promise<void>((resolve, reject) => socket.send(msg, target.port, target.address, (err) => (err ? reject(err) : resolve())));
    }
    await listen(target.windowMs, signal);
  } finally {
    socket.close();
  }
}

/** One turn of the listening window. */
const TURN_MS = 25;

/**
 * Listens for `windowMs`, counted in short turns of the event loop rather than as one deadline: each
 * turn starts when the previous one ended, and between turns the loop reads the socket. Time the
 * process could not run (a loaded machine, a long synchronous task, a device simulated in the same
 * process) does not use the window up while the replies wait unread in the socket: one long deadline
 * fires before the loop's next read and closed the socket on them (issue 39, an e2e flake).
 */
async function listen(windowMs: number, signal?: AbortSignal): Promise<void> {
  for (let left = windowMs; left > 0 && !signal?.aborted; left -= TURN_MS) await waitOrAbort(Math.min(TURN_MS, left), signal);
}
