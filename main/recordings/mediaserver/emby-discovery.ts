import { z } from 'zod';
import { displayText } from '../box/description.js';
import { udpSearch, type UdpSearchTarget } from '../udp-search.js';
import { KIND_NAMES, type EmbyFamilyKind } from './jellyfin-client.js';

/**
 * Jellyfin's and Emby's client discovery: a UDP datagram `who is JellyfinServer?` (Emby:
 * `who is EmbyServer?`) broadcast to port 7359; each server answers with JSON carrying its
 * `Address` (its own idea of its URL), `Id` and `Name` (jellyfin-archive/jellyfin-docs
 * general/networking/index.md, "Client Discovery: 7359 UDP"). The servers compare the text without
 * regard to case.
 */
export const EMBY_DISCOVERY_PORT = 7359;
export const BROADCAST_ADDRESS = '255.255.255.255';
export const DISCOVERY_MESSAGES: Record<EmbyFamilyKind, string> = { jellyfin: 'who is JellyfinServer?', emby: 'who is EmbyServer?' };
/** Most servers one search lists. */
export const MAX_EMBY_SERVERS = 16;
const MAX_REPLY_BYTES = 4096;

/** Where the search goes (the LAN broadcast address in production, a simulator on loopback in tests and the demo). */
export type EmbyDiscoveryTarget = UdpSearchTarget;

export interface FoundEmbyServer {
  kind: EmbyFamilyKind;
  name: string;
  /** `<scheme>://<address that answered>:<port of its Address>[<base path>]` */
  url: string;
  id: string;
}

const replySchema = z.object({ Address: z.string().max(512), Id: z.unknown().optional(), Name: z.unknown().optional() }).passthrough();

/**
 * One reply from `address`; null when it is not a server's answer. The host is the address the
 * datagram came from, not the one the reply names: a reply cannot point the service at a third
 * machine (only the port, scheme and base path are taken from `Address`).
 */
export function parseEmbyReply(kind: EmbyFamilyKind, msg: Buffer, address: string): FoundEmbyServer | null {
  if (msg.length > MAX_REPLY_BYTES) return null;
  let json: unknown;
  try {
    json = JSON.parse(msg.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = replySchema.safeParse(json);
  if (!parsed.success) return null;
  let said: URL;
  try {
    said = new URL(parsed.data.Address);
  } catch {
    return null;
  }
  if (said.protocol !== 'http:' && said.protocol !== 'https:') return null;
  const port = said.port || (said.protocol === 'https:' ? '443' : '80');
  const host = address.includes(':') ? `[${address}]` : address;
  const base = said.pathname.replace(/\/+$/, '');
  if (!/^[A-Za-z0-9/_.-]*$/.test(base)) return null;
  return {
    kind,
    name: displayText(typeof parsed.data.Name === 'string' ? parsed.data.Name : '', 120) || KIND_NAMES[kind],
    url: `${said.protocol}//${host}:${port}${base}`,
    id: displayText(typeof parsed.data.Id === 'string' ? parsed.data.Id : '', 64),
  };
}

/** Sends one discovery datagram for `kind` and collects the servers that answer within the window (distinct by URL). */
export async function searchEmbyServers(kind: EmbyFamilyKind, target: EmbyDiscoveryTarget, signal?: AbortSignal): Promise<FoundEmbyServer[]> {
  const found = new Map<string, FoundEmbyServer>();
  await udpSearch(
    target,
    {
      broadcast: target.address === BROADCAST_ADDRESS,
      ttl: 1,
      messages: [Buffer.from(DISCOVERY_MESSAGES[kind])],
      onReply(msg, from) {
        if (found.size >= MAX_EMBY_SERVERS) return;
        const server = parseEmbyReply(kind, msg, from);
        if (server && !found.has(server.url)) found.set(server.url, server);
      },
    },
    signal,
  );
  return [...found.values()];
}
