import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBoxXmlParser, escapeXml, textOf } from '../xml.js';
import { RECORDING_SIZE_MARKER, listedSize, type SimItem, type SimShow } from './box-model.js';
import { boxDescriptionXml, brokenDescriptionXml, routerDescriptionXml } from './descriptions.js';
import { entityExpansionAnswer, streamHugeListing, type HostileListing } from './hostile.js';
import { mediaChunks, mediaHash } from './media-bytes.js';
import { assertLoopback } from './loopback.js';

export interface BoxSimulatorOptions {
  shows: SimShow[];
  /** Loopback only. */
  host?: string;
  port?: number;
  udn?: string;
  friendlyName?: string;
  /** Most entries one Browse returns, whatever was asked (a real box may return fewer). */
  maxPageSize?: number;
  /** Leave raw `&` in DIDL titles, as real boxes do. */
  rawAmpersands?: boolean;
  /** A hostile device: how it answers a Browse of a show folder (changeable while running). */
  hostile?: HostileListing;
}

export interface SimRequest {
  method: string;
  path: string;
  range: string | null;
  status: number;
}

export interface BoxSimulator {
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly baseUrl: string;
  readonly descriptionUrl: string;
  /** URLs of other UPnP devices served here: a router (valid, not a box) and a broken description. */
  readonly otherDeviceUrls: { router: string; broken: string };
  item(id: string): SimItem;
  update(id: string, patch: Partial<SimItem>): void;
  /**
   * A rescan on the box: every item gets the id `renumber(oldId)` (bytes and titles unchanged), as
   * media servers do. Ids may swap; the new ids must be distinct.
   */
  renumber(renumber: (oldId: string) => string): void;
  /** Adds an item to the show at `showIndex` (a new recording). */
  add(showIndex: number, item: SimItem): void;
  /** Deletes an item from the box. */
  remove(id: string): void;
  mediaUrl(id: string): string;
  /** SHA-256 of the complete bytes of an item. */
  hash(id: string): string;
  requests: SimRequest[];
  /** Every Browse answered: what was asked and how many entries went back. */
  browses: Array<{ objectId: string; start: number; asked: number; returned: number }>;
  /** Number of media bodies being streamed right now. */
  activeStreams(): number;
  /** Turns the hostile answers to show-folder Browses on or off. */
  setHostile(hostile: HostileListing | undefined): void;
}

const RECORDINGS_ID = '7';
const MOVIES_ID = '8';
const envelopeParser = createBoxXmlParser();

/** Slices [start, end) of a real media buffer, `max` bytes at most each. */
function* contentChunks(content: Buffer, start: number, end: number, max: number): Generator<Buffer> {
  for (let pos = start; pos < end; pos += max) yield content.subarray(pos, Math.min(end, pos + max));
}

export function createBoxSimulator(opts: BoxSimulatorOptions): BoxSimulator {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host);
  const udn = opts.udn ?? 'uuid:fetch-box-sim-0001';
  const items = new Map<string, { item: SimItem; showIndex: number }>();
  const index = () => {
    items.clear();
    opts.shows.forEach((s, i) =>
      s.items.forEach((item) => {
        item.contentKey ??= item.id;
        items.set(item.id, { item, showIndex: i });
      }),
    );
  };
  index();
  const keyOf = (item: SimItem) => item.contentKey ?? item.id;
  const folderId = (i: number) => String(60 + i);
  const requests: SimRequest[] = [];
  const browses: BoxSimulator['browses'] = [];
  let active = 0;
  let baseUrl = '';
  let lastPort = 0;

  const mediaUrlOf = (id: string) => `${baseUrl}/web/${encodeURIComponent(id)}`;
  const containerXml = (id: string, parent: string, title: string, count: number) =>
    `<container id="${id}" parentID="${parent}" restricted="1" childCount="${count}"><dc:title>${escapeXml(title)}</dc:title><upnp:class>object.container.storageFolder</upnp:class></container>`;
  const titleText = (t: string) => (opts.rawAmpersands ? t.replace(/</g, '&lt;') : escapeXml(t));
  const itemXml = (item: SimItem, showIndex: number) => {
    const show = opts.shows[showIndex]!;
    if (item.growBytes) item.length += item.growBytes;
    return (
      `<item id="${escapeXml(item.id)}" parentID="${folderId(showIndex)}" restricted="1"><dc:title>${titleText(item.title)}</dc:title>` +
      `<upnp:class>object.item.videoItem.movie</upnp:class><description>${escapeXml(item.description ?? '')}</description>` +
      `<recordedStartDateTime>${escapeXml(item.recordedStart ?? 'Wednesday 01 July 2020 09:05 PM')}</recordedStartDateTime>` +
      `<res protocolInfo="http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_HD_AAC;DLNA.ORG_OP=01;DLNA.ORG_FLAGS=ED100000000000000000000000000000" ` +
      `size="${listedSize(item)}" duration="${item.duration ?? '0:29:48'}" parentTaskName="${escapeXml(show.title)}">${escapeXml(mediaUrlOf(item.id))}</res></item>`
    );
  };

  const children = (objectId: string): string[] => {
    if (objectId === '0') return [containerXml(RECORDINGS_ID, '0', 'Recordings', opts.shows.length), containerXml(MOVIES_ID, '0', 'Movies', 0)];
    if (objectId === RECORDINGS_ID) return opts.shows.map((s, i) => containerXml(folderId(i), RECORDINGS_ID, s.title, s.items.length));
    const idx = opts.shows.findIndex((_, i) => folderId(i) === objectId);
    if (idx < 0) return [];
    return opts.shows[idx]!.items.map((it) => itemXml(it, idx));
  };

  const browse = (body: string): string => {
    const env = envelopeParser.parse(body) as Record<string, unknown>;
    const b = ((env.Envelope as Record<string, unknown>)?.Body as Record<string, unknown>)?.Browse as Record<string, unknown>;
    const all = children(textOf(b?.ObjectID));
    const start = Number(textOf(b?.StartingIndex)) || 0;
    const asked = Number(textOf(b?.RequestedCount)) || all.length;
    const page = all.slice(start, start + Math.min(asked, opts.maxPageSize ?? asked));
    browses.push({ objectId: textOf(b?.ObjectID), start, asked, returned: page.length });
    const didl =
      '<DIDL-Lite xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/">' +
      page.join('') +
      '</DIDL-Lite>';
    return (
      '<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>' +
      `<u:BrowseResponse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><Result>${escapeXml(didl)}</Result>` +
      `<NumberReturned>${page.length}</NumberReturned><TotalMatches>${all.length}</TotalMatches><UpdateID>1</UpdateID></u:BrowseResponse></s:Body></s:Envelope>`
    );
  };

  const serveMedia = (req: http.IncomingMessage, res: http.ServerResponse, id: string) => {
    const entry = items.get(id);
    const log = (status: number) => requests.push({ method: req.method ?? '', path: req.url ?? '', range: req.headers.range ?? null, status });
    if (!entry) {
      log(404);
      res.writeHead(404).end();
      return;
    }
    const it = entry.item;
    if (it.growBytes && req.method === 'GET') it.length += it.growBytes;
    if (it.failStatus) {
      log(it.failStatus);
      res.writeHead(it.failStatus, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    const total = it.length;
    const markerLength =
      it.recording === 'marker' || it.recording === 'head-marker' || (it.recording === 'get-marker' && req.method === 'GET');
    let start = 0;
    let status = 200;
    const headers: Record<string, string | number> = { 'content-type': 'video/vnd.dlna.mpeg-tts', 'accept-ranges': 'bytes' };
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (m && !it.ignoreRange && !markerLength) {
      start = Number(m[1]);
      if (start >= total) {
        log(416);
        res.writeHead(416, { 'content-range': `bytes */${total}` }).end();
        return;
      }
      const end = m[2] ? Math.min(Number(m[2]), total - 1) : total - 1;
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${total}`;
      headers['content-length'] = end - start + 1;
    } else {
      headers['content-length'] = markerLength ? RECORDING_SIZE_MARKER : total;
    }
    log(status);
    res.writeHead(status, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const end = status === 206 ? start + Number(headers['content-length']) : total;
    let dropAt = Infinity;
    if (it.dropAfterBytes !== undefined && (it.dropTimes ?? 1) > 0) {
      dropAt = start + it.dropAfterBytes;
      it.dropTimes = (it.dropTimes ?? 1) - 1;
    }
    streamBody(res, keyOf(it), start, Math.min(end, dropAt), it.bytesPerSecond, dropAt < end, it.content);
  };

  const streamBody = (res: http.ServerResponse, key: string, start: number, end: number, bps: number | undefined, drop: boolean, content?: Buffer) => {
    active++;
    const chunkSize = bps ? Math.max(1024, Math.min(64 * 1024, Math.floor(bps / 10))) : 256 * 1024;
    const chunks = content ? contentChunks(content, start, end, chunkSize) : mediaChunks(key, start, end, chunkSize);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      active--;
      if (drop) res.socket?.destroy();
      else res.end();
    };
    res.on('close', () => {
      if (!done) {
        done = true;
        active--;
      }
    });
    const pump = () => {
      if (done) return;
      for (;;) {
        const next = chunks.next();
        if (next.done) return finish();
        const ok = res.write(next.value);
        if (bps) {
          setTimeout(pump, (next.value.length / bps) * 1000);
          return;
        }
        if (!ok) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    if (req.method === 'GET' && url.pathname === '/MediaServer.xml') {
      res.writeHead(200, { 'content-type': 'text/xml; charset="utf-8"' }).end(boxDescriptionXml({ udn, friendlyName: opts.friendlyName ?? 'Fetch TV Box' }));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/devices/router.xml') {
      res.writeHead(200, { 'content-type': 'text/xml' }).end(routerDescriptionXml);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/devices/broken.xml') {
      res.writeHead(200, { 'content-type': 'text/xml' }).end(brokenDescriptionXml);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/web/cds_control') {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        try {
          const body = Buffer.concat(parts).toString('utf8');
          const objectId = /<ObjectID>([^<]*)<\/ObjectID>/.exec(body)?.[1] ?? '';
          const hostile = opts.hostile;
          if (hostile && opts.shows.some((_, i) => folderId(i) === objectId)) {
            browses.push({ objectId, start: 0, asked: 0, returned: -1 });
            if (hostile.hugeListingBytes) return streamHugeListing(res, hostile.hugeListingBytes, mediaUrlOf);
            if (hostile.entityExpansion) {
              res.writeHead(200, { 'content-type': 'text/xml; charset="utf-8"' }).end(entityExpansionAnswer(hostile.entityExpansion, mediaUrlOf('666000001')));
              return;
            }
          }
          res.writeHead(200, { 'content-type': 'text/xml; charset="utf-8"' }).end(browse(Buffer.concat(parts).toString('utf8')));
        } catch {
          res.writeHead(500).end();
        }
      });
      return;
    }
    const media = /^\/web\/([^/]+)$/.exec(url.pathname);
    if (media && (req.method === 'GET' || req.method === 'HEAD')) {
      serveMedia(req, res, decodeURIComponent(media[1]!));
      return;
    }
    // The LAN route to delete is unusable on the real box.
    if (media && req.method === 'DELETE') {
      res.writeHead(501).end();
      return;
    }
    res.writeHead(404).end();
  });

  return {
    async start() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        // A restart after stop() comes back on the same port (the box was switched off and on).
        server.listen(opts.port ?? lastPort, host, () => resolve());
      });
      const addr = server.address() as AddressInfo;
      lastPort = addr.port;
      baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    get baseUrl() {
      return baseUrl;
    },
    get descriptionUrl() {
      return `${baseUrl}/MediaServer.xml`;
    },
    get otherDeviceUrls() {
      return { router: `${baseUrl}/devices/router.xml`, broken: `${baseUrl}/devices/broken.xml` };
    },
    item(id) {
      const e = items.get(id);
      if (!e) throw new Error(`no simulated item ${id}`);
      return e.item;
    },
    update(id, patch) {
      Object.assign(this.item(id), patch);
    },
    renumber(renumber) {
      const next = new Set<string>();
      for (const s of opts.shows) for (const it of s.items) next.add(renumber(it.id));
      if (next.size !== items.size) throw new Error('renumber must give every item a distinct id');
      for (const s of opts.shows) for (const it of s.items) it.id = renumber(it.id);
      index();
    },
    add(showIndex, item) {
      if (items.has(item.id)) throw new Error(`item ${item.id} exists`);
      opts.shows[showIndex]!.items.push(item);
      index();
    },
    remove(id) {
      for (const s of opts.shows) s.items = s.items.filter((it) => it.id !== id);
      index();
    },
    mediaUrl: (id) => mediaUrlOf(id),
    setHostile(hostile) {
      opts.hostile = hostile;
    },
    hash: (id) => {
      const it = items.get(id)!.item;
      return it.content ? crypto.createHash('sha256').update(it.content).digest('hex') : mediaHash(keyOf(it), it.length);
    },
    requests,
    browses,
    activeStreams: () => active,
  };
}
