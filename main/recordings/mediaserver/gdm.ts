import { displayText } from '../box/description.js';
import { udpSearch, type UdpSearchTarget } from '../udp-search.js';

export const GDM_MULTICAST_ADDRESS = '239.0.0.250';
export const GDM_PORT = 32414;
/** Most servers one search lists. */
export const MAX_GDM_SERVERS = 16;
const MAX_REPLY_BYTES = 4096;

/** Where the GDM search goes (the multicast group in production, the fake media server in tests). */
export type GdmTarget = UdpSearchTarget;

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
  const found = new Map<string, FoundMediaServer>();
  await udpSearch(
    target,
    {
      multicastGroup: GDM_MULTICAST_ADDRESS,
      ttl: 1,
      messages: [Buffer.from(GDM_SEARCH)],
      onReply(msg, from) {
        if (found.size >= MAX_GDM_SERVERS) return;
        const server = parseGdmReply(msg, from);
        if (server && !found.has(server.url)) found.set(server.url, server);
      },
    },
    signal,
  );
  return [...found.values()];
}
