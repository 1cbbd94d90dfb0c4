import { abortScope } from '../abort-scope.js';
import { createBoxXmlParser, textOf } from './xml.js';

/** The box is the UPnP device whose description names this manufacturer URL. */
export const BOX_MANUFACTURER_URL = 'http://www.fetch.com/';
/** Port of the device description on the real box (manual fallback by address). */
export const BOX_DESCRIPTION_PORT = 49152;
export const BOX_DESCRIPTION_PATH = '/MediaServer.xml';

export interface BoxInfo {
  udn: string;
  friendlyName: string;
  modelName: string;
  manufacturer: string;
  /** URL of the device description. */
  location: string;
  /** Absolute ContentDirectory control URL (`/web/cds_control` on the real box). */
  controlUrl: string;
  /** Host (and port) of the box, for display and for the `box_address` setting. */
  address: string;
}

const parser = createBoxXmlParser(['service', 'device']);

export class NotABoxError extends Error {}

/**
 * Parses a device description; returns the box when the device is one, throws NotABoxError when
 * it is another UPnP device, and throws a parse error for broken XML.
 */
export function parseDescription(xml: string, location: string): BoxInfo {
  const doc = parser.parse(xml, true) as Record<string, unknown>;
  const root = doc.root as Record<string, unknown> | undefined;
  const device = ((root?.device ?? []) as Array<Record<string, unknown>>)[0];
  if (!device) throw new NotABoxError('no device element');
  const manufacturerUrl = textOf(device.manufacturerURL).trim();
  if (manufacturerUrl.replace(/\/+$/, '') !== BOX_MANUFACTURER_URL.replace(/\/+$/, '')) {
    throw new NotABoxError(`not the recording box (manufacturerURL ${manufacturerUrl || 'missing'})`);
  }
  const services = ((device.serviceList as Record<string, unknown> | undefined)?.service ?? []) as Array<Record<string, unknown>>;
  const cds = services.find((s) => textOf(s.serviceType).startsWith('urn:schemas-upnp-org:service:ContentDirectory:'));
  if (!cds) throw new NotABoxError('the box description has no ContentDirectory service');
  const base = textOf(root?.URLBase).trim() || location;
  const controlUrl = new URL(textOf(cds.controlURL).trim() || '/web/cds_control', base).toString();
  const loc = new URL(location);
  return {
    udn: textOf(device.UDN).trim(),
    friendlyName: textOf(device.friendlyName).trim(),
    modelName: textOf(device.modelName).trim(),
    manufacturer: textOf(device.manufacturer).trim(),
    location,
    controlUrl,
    address: loc.host,
  };
}

/** The description URL for a manual box address: an IP/host (port 49152 implied) or a full URL. */
export function descriptionUrlFor(address: string): string {
  if (/^https?:\/\//i.test(address)) return address;
  const hasPort = /^\[.*\]:\d+$/.test(address) || /^[^:[\]]+:\d+$/.test(address);
  return `http://${address}${hasPort ? '' : `:${BOX_DESCRIPTION_PORT}`}${BOX_DESCRIPTION_PATH}`;
}

export type FetchLike = typeof fetch;

/** GETs and parses one description (with a timeout). */
export async function fetchBoxDescription(fetchFn: FetchLike, location: string, timeoutMs: number): Promise<BoxInfo> {
  const scope = abortScope(undefined, timeoutMs);
  try {
    const res = await fetchFn(location, { signal: scope.signal });
    if (!res.ok) throw new Error(`description ${location} answered HTTP ${res.status}`);
    return parseDescription(await res.text(), location);
  } finally {
    scope.dispose();
  }
}
