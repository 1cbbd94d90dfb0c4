import type http from 'node:http';
import { escapeXml } from '../xml.js';

/**
 * What a hostile device on the LAN answers a Browse of a show folder with (tests only). Each mode
 * reproduces an attack that once took the whole process down.
 */
export interface HostileListing {
  /**
   * A ~118 KiB answer whose DTD declares one 10,000-character entity and references it tens of
   * thousands of times: hundreds of millions of characters once expanded. `envelope` declares it
   * in the SOAP envelope (the references sit in the escaped Result); `didl` inside the DIDL-Lite.
   */
  entityExpansion?: 'envelope' | 'didl';
  /** A listing of this many bytes, streamed without a Content-Length (e.g. 60 MB). */
  hugeListingBytes?: number;
}

const ENTITY_VALUE = 'A'.repeat(10_000);
const TARGET_BYTES = 118 * 1024;

const envelope = (result: string, doctype = '') =>
  `<?xml version="1.0" encoding="utf-8"?>${doctype}<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
  `<u:BrowseResponse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><Result>${result}</Result>` +
  '<NumberReturned>1</NumberReturned><TotalMatches>1</TotalMatches><UpdateID>1</UpdateID></u:BrowseResponse></s:Body></s:Envelope>';

const didlOpen = '<DIDL-Lite xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/">';

/**
 * The "billion laughs"-style answer: about 118 KiB on the wire. `envelope`: 25,000 references
 * (250 million characters, just under the expansion cap older versions set); `didl`: as many as fit.
 */
export function entityExpansionAnswer(where: 'envelope' | 'didl', mediaUrl: string): string {
  const item = (title: string, pad = '') =>
    `<item id="666000001" parentID="60" restricted="1"><dc:title>${title}</dc:title><upnp:class>object.item.videoItem.movie</upnp:class>` +
    `<description>${pad}</description><res size="1000">${escapeXml(mediaUrl)}</res></item>`;
  if (where === 'envelope') {
    const doctype = `<!DOCTYPE s:Envelope [<!ENTITY e "${ENTITY_VALUE}">]>`;
    const refs = '&e;'.repeat(25_000);
    const shell = envelope(escapeXml(`${didlOpen}${item('')}</DIDL-Lite>`), doctype).length + refs.length;
    const pad = 'p'.repeat(Math.max(0, TARGET_BYTES - shell));
    // The references sit in the escaped Result, inside the title: expanded when the envelope is parsed.
    return envelope(escapeXml(`${didlOpen}${item('@@', pad)}</DIDL-Lite>`).replace('@@', refs), doctype);
  }
  const doctype = `<!DOCTYPE DIDL-Lite [<!ENTITY e "${ENTITY_VALUE}">]>`;
  const shell = envelope(escapeXml(`${doctype}${didlOpen}${item('')}</DIDL-Lite>`));
  const refs = '&amp;e;'.repeat(Math.floor((TARGET_BYTES - shell.length) / 7));
  return envelope(escapeXml(`${doctype}${didlOpen}${item('@@')}</DIDL-Lite>`).replace('@@', refs));
}

/** Streams a well-formed-looking listing of `bytes` bytes (chunked, no Content-Length), with backpressure. */
export function streamHugeListing(res: http.ServerResponse, bytes: number, mediaUrl: (id: string) => string): void {
  res.writeHead(200, { 'content-type': 'text/xml; charset="utf-8"' });
  const head = `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><u:BrowseResponse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><Result>${escapeXml(didlOpen)}`;
  let sent = 0;
  let n = 0;
  const chunk = () => {
    const parts: string[] = [];
    for (let i = 0; i < 100; i++, n++) {
      parts.push(
        escapeXml(`<item id="${500000000 + n}" parentID="60"><dc:title>S1 E${n} - Filler ${n}</dc:title><res size="1000">${mediaUrl(String(500000000 + n))}</res></item>`),
      );
    }
    return Buffer.from(parts.join(''));
  };
  let closed = false;
  res.on('close', () => (closed = true));
  const pump = () => {
    while (!closed && sent < bytes) {
      const b = sent === 0 ? Buffer.from(head) : chunk();
      sent += b.length;
      if (!res.write(b)) return void res.once('drain', pump);
    }
    if (!closed) res.end(`${escapeXml('</DIDL-Lite>')}</Result><NumberReturned>1</NumberReturned><TotalMatches>1</TotalMatches></u:BrowseResponse></s:Body></s:Envelope>`);
  };
  pump();
}
