import { udpSearch, type UdpSearchTarget } from '../udp-search.js';
import type { Logger } from '../../core/logger.js';
import { fetchBoxDescription, NotABoxError, type BoxInfo, type FetchLike } from './description.js';

export const SSDP_MULTICAST_ADDRESS = '239.255.255.250';
export const SSDP_PORT = 1900;

/** Where M-SEARCH goes (the SSDP multicast group in production, the box simulator in tests). */
export type SsdpTarget = UdpSearchTarget;

/** Most distinct devices one search follows up (a home LAN has a handful of UPnP devices). */
export const MAX_SSDP_LOCATIONS = 32;
/** Longest LOCATION URL followed. */
const MAX_LOCATION_LENGTH = 512;

/**
 * A reply's LOCATION is followed only when it is an http(s) URL on the host that sent the reply:
 * a device describes itself, it does not send the service to fetch from somewhere else.
 */
export function acceptableLocation(location: string, sender: string): boolean {
  if (location.length > MAX_LOCATION_LENGTH || !/^https?:\/\//i.test(location)) return false;
  try {
    return new URL(location).hostname.replace(/^\[|\]$/g, '') === sender;
  } catch {
    return false;
  }
}

export function mSearch(st: string, mx = 1): string {
  return ['M-SEARCH * HTTP/1.1', `HOST: ${SSDP_MULTICAST_ADDRESS}:${SSDP_PORT}`, 'MAN: "ssdp:discover"', `MX: ${mx}`, `ST: ${st}`, '', ''].join('\r\n');
}

/** Header map of an SSDP message (names lower-cased). */
export function parseSsdpHeaders(message: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of message.split(/\r?\n/).slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

/** Sends M-SEARCH and collects the distinct LOCATION URLs of the replies. */
export async function searchLocations(target: SsdpTarget, signal?: AbortSignal): Promise<string[]> {
  const locations = new Set<string>();
  await udpSearch(
    target,
    {
      multicastGroup: SSDP_MULTICAST_ADDRESS,
      ttl: 2,
      messages: ['ssdp:all', 'urn:schemas-upnp-org:device:MediaServer:1'].map((st) => Buffer.from(mSearch(st))),
      onReply(msg, from) {
        if (locations.size >= MAX_SSDP_LOCATIONS || msg.length > 8192) return;
        const text = msg.toString('utf8');
        if (!/^HTTP\/1\.[01] 200/i.test(text) && !/^NOTIFY /i.test(text)) return;
        const loc = parseSsdpHeaders(text).location;
        if (loc && acceptableLocation(loc, from)) locations.add(loc);
      },
    },
    signal,
  );
  return [...locations];
}

export interface DiscoveryResult {
  boxes: BoxInfo[];
  /** Other devices that answered (or broke), for the log and the UI. */
  skipped: Array<{ location: string; reason: string }>;
}

/**
 * Finds every recording box: each LOCATION's description is fetched; devices that are not the box,
 * answer with an error or send broken XML are skipped, never failing the scan.
 */
export async function discoverBoxes(opts: {
  target: SsdpTarget;
  fetch: FetchLike;
  logger: Logger;
  descriptionTimeoutMs?: number;
  signal?: AbortSignal;
}): Promise<DiscoveryResult> {
  const locations = await searchLocations(opts.target, opts.signal);
  return describeAll(locations, opts);
}

export async function describeAll(
  locations: string[],
  opts: { fetch: FetchLike; logger: Logger; descriptionTimeoutMs?: number },
): Promise<DiscoveryResult> {
  const boxes: BoxInfo[] = [];
  const skipped: DiscoveryResult['skipped'] = [];
  const results = await Promise.allSettled(locations.map((l) => fetchBoxDescription(opts.fetch, l, opts.descriptionTimeoutMs ?? 3000)));
  results.forEach((r, i) => {
    const location = locations[i]!;
    if (r.status === 'fulfilled') {
      if (!boxes.some((b) => b.udn && b.udn === r.value.udn)) boxes.push(r.value);
      return;
    }
    const cause = (r.reason as { cause?: { code?: string; message?: string } } | undefined)?.cause;
    const reason = r.reason instanceof Error ? `${r.reason.message}${cause ? ` (${cause.code ?? cause.message})` : ''}` : String(r.reason);
    if (!(r.reason instanceof NotABoxError)) opts.logger.info({ location, reason }, 'skipping a UPnP device that did not describe itself');
    skipped.push({ location, reason });
  });
  return { boxes, skipped };
}
