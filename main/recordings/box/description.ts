import { fetchBounded, MAX_DESCRIPTION_BYTES, type FetchLike } from './bounded-fetch.js';
import { createBoxXmlParser, parseBoxXml, textOf } from './xml.js';

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
  const doc = parseBoxXml(parser, xml, `description ${location}`, true);
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
  const loc = new URL(location);
  const control = new URL(textOf(cds.controlURL).trim() || '/web/cds_control', base);
  // The SOAP calls go to the device that described itself, never to a host it names.
  if (!/^https?:$/.test(control.protocol) || control.hostname !== loc.hostname) {
    throw new Error(`the description at ${location} names a control URL on another host (${control.host}): refused`);
  }
  const controlUrl = control.toString();
  const field = (v: unknown) => displayText(textOf(v), 200);
  return {
    udn: field(device.UDN),
    friendlyName: field(device.friendlyName),
    modelName: field(device.modelName),
    manufacturer: field(device.manufacturer),
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

export type { FetchLike };

/** Device-supplied text for display and logs: control characters removed, whitespace collapsed, length capped. */
export function displayText(s: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return s.slice(0, max * 4).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

/** GETs and parses one description (size- and time-limited). */
export async function fetchBoxDescription(fetchFn: FetchLike, location: string, timeoutMs: number, signal?: AbortSignal): Promise<BoxInfo> {
  const what = `description ${location}`;
  const res = await fetchBounded(fetchFn, location, {}, { maxBytes: MAX_DESCRIPTION_BYTES, timeoutMs, signal, what });
  if (!res.ok) throw new Error(`${what} answered HTTP ${res.status}`);
  return parseDescription(res.text, location);
}
