import dgram from 'node:dgram';
import { waitOrAbort } from '../abort-scope.js';
import { displayText } from '../box/description.js';

export const GDM_MULTICAST_ADDRESS = '239.0.0.250';
export const GDM_PORT = 32414;
/** Most servers one search lists. */
export const MAX_GDM_SERVERS = 16;
const MAX_REPLY_BYTES = 4096;

/**
 * Where the GDM search goes and which local address the socket binds: an injected dependency. In
 * production the multicast group on the configured interface; tests and the demo send unicast to the
 * fake media server on loopback.
 */
export interface GdmTarget {
  bindAddress: string;
  address: string;
  port: number;
  multicastInterface?: string;
  windowMs: number;
}

export interface FoundMediaServer {
  name: string;
  /** `http://<address that answered>:<Port>` */
  url: string;
  resource_identifier: string;
  version: string;
}

export const GDM_SEARCH = 'M-SEARCH * HTTP/1.0\r\n\r\n';

/** Header map of a GDM reply (names lower-cased). */
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/).slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

/** Parses one reply from `address`; null when it is not a media server's answer. */
export function parseGdmReply(msg: Buffer, address: string): FoundMediaServer | null {
  if (msg.length > MAX_REPLY_BYTES) return null;
  const text = msg.toString('utf8');
  if (!/^HTTP\/1\.[01] 200/i.test(text)) return null;
  const h = headersOf(text);
  const port = Number(h.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    name: displayText(h.name ?? '', 120) || 'media server',
    url: `http://${host}:${port}`,
    resource_identifier: displayText(h['resource-identifier'] ?? '', 120),
    version: displayText(h.version ?? '', 60),
  };
}

/** Sends one GDM search and collects the servers that answer within the window (distinct by URL). */
export async function searchMediaServers(target: GdmTarget, signal?: AbortSignal): Promise<FoundMediaServer[]> {
  const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
  const found = new Map<string, FoundMediaServer>();
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, target.bindAddress, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('error', () => undefined);
    socket.on('message', (msg, rinfo) => {
      if (found.size >= MAX_GDM_SERVERS) return;
      const server = parseGdmReply(msg, rinfo.address);
      if (server && !found.has(server.url)) found.set(server.url, server);
    });
    if (target.address === GDM_MULTICAST_ADDRESS) {
      socket.setMulticastTTL(1);
      if (target.multicastInterface) socket.setMulticastInterface(target.multicastInterface);
    }
    await new Promise<void>((resolve, reject) => socket.send(Buffer.from(GDM_SEARCH), target.port, target.address, (err) => (err ? reject(err) : resolve())));
    await waitOrAbort(target.windowMs, signal);
  } finally {
    socket.close();
  }
  return [...found.values()];
}
