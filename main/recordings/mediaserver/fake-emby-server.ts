import dgram from 'node:dgram';
import http from 'node:http';
import { fakeListeners } from './fake-listeners.js';
import { assertLoopback } from '../box/simulator/loopback.js';
import { DISCOVERY_MESSAGES } from './emby-discovery.js';
import type { EmbyFamilyKind } from './jellyfin-client.js';

export interface FakeEmbyLibrary {
  id: string;
  name: string;
  collectionType: string;
  locations: string[];
}

export interface FakeEmbyServerOptions {
  kind: EmbyFamilyKind;
  apiKey: string;
  name?: string;
  libraries?: FakeEmbyLibrary[];
  host?: string;
  /** HTTP port (default: any free one). */
  port?: number;
}

/** One refresh the server accepted: the whole library scan, or the folders `Media/Updated` named. */
export type FakeRefresh = { all: true } | { paths: string[] };

export interface FakeEmbyServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly kind: EmbyFamilyKind;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** UDP port answering `who is JellyfinServer?` / `who is EmbyServer?` (unicast, loopback). */
  readonly discoveryPort: number;
  readonly host: string;
  /** Refreshes accepted, in order. */
  readonly refreshes: FakeRefresh[];
  /** Requests refused for a bad or missing API key. */
  unauthorized(): number;
  /** Every HTTP request received. */
  requests(): number;
  /** Status the next refreshes answer (default 204); a failing media server. */
  refreshStatus: number;
}

const MAX_BODY = 64 * 1024;

/**
 * A Jellyfin or Emby server on loopback speaking what the service uses: the API key (Jellyfin:
 * `Authorization: MediaBrowser Token="…"` or `X-Emby-Token`; Emby: `X-Emby-Token`), `System/Info`,
 * `Library/VirtualFolders`, `POST Library/Refresh` and `POST Library/Media/Updated`, Emby's under
 * `/emby`, and the UDP discovery answer. Tests and the demo point the service here; nothing
 * broadcasts.
 */
export function createFakeEmbyServer(opts: FakeEmbyServerOptions): FakeEmbyServer {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host);
  const name = opts.name ?? (opts.kind === 'jellyfin' ? 'Fake Jellyfin' : 'Fake Emby');
  const serverId = opts.kind === 'jellyfin' ? '4f1c0e2a9b8d4c6e8a7b5d3c1e0f2a4b' : 'c0ffee00emby0001';
  const libraries = opts.libraries ?? [
    { id: opts.kind === 'jellyfin' ? 'f137a2dd21bbc1b99aa5c0f6bf02a805' : '3', name: 'Movies', collectionType: 'movies', locations: ['/media/movies'] },
    { id: opts.kind === 'jellyfin' ? '767bffe4f11c93ef34b805451a696a4e' : '7', name: 'TV Shows', collectionType: 'tvshows', locations: ['/media/tv'] },
  ];
  const prefix = opts.kind === 'emby' ? '/emby' : '';
  let unauthorized = 0;
  let requests = 0;

  const keyOf = (req: http.IncomingMessage): string | undefined => {
    const emby = req.headers['x-emby-token'];
    if (typeof emby === 'string') return emby;
    if (opts.kind !== 'jellyfin') return undefined;
    const auth = /^MediaBrowser\s+(.*)$/i.exec(req.headers.authorization ?? '');
    return auth ? /(?:^|,\s*)Token="([^"]*)"/.exec(auth[1]!)?.[1] : undefined;
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests++;
    if (keyOf(req) !== opts.apiKey) {
      unauthorized++;
      res.writeHead(401).end();
      return;
    }
    if (!url.pathname.startsWith(`${prefix}/`)) return void res.writeHead(404).end();
    const route = `${req.method} ${url.pathname.slice(prefix.length)}`;
    if (route === 'GET /System/Info') return json(res, 200, { ServerName: name, Version: opts.kind === 'jellyfin' ? '10.10.7' : '4.8.10.0', Id: serverId, OperatingSystem: 'Linux' });
    if (route === 'GET /Library/VirtualFolders') return json(res, 200, libraries.map((l) => ({ Name: l.name, CollectionType: l.collectionType, ItemId: l.id, Locations: l.locations, LibraryOptions: {} })));
    if (route === 'POST /Library/Refresh') {
      if (fake.refreshStatus < 300) fake.refreshes.push({ all: true });
      return void res.writeHead(fake.refreshStatus).end();
    }
    if (route === 'POST /Library/Media/Updated') {
      let size = 0;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      req.on('end', () => {
        let paths: string[] | null = null;
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Updates?: Array<{ Path?: unknown; UpdateType?: unknown }> };
          if (Array.isArray(body.Updates) && body.Updates.every((u) => typeof u.Path === 'string')) paths = body.Updates.map((u) => u.Path as string);
        } catch {
          paths = null;
        }
        if (size > MAX_BODY || !paths) return void res.writeHead(400).end();
        if (fake.refreshStatus < 300) fake.refreshes.push({ paths });
        res.writeHead(fake.refreshStatus).end();
      });
      return;
    }
    res.writeHead(404).end();
  });

  const udp = dgram.createSocket('udp4');
  udp.on('message', (msg, rinfo) => {
    if (msg.toString('utf8').trim().toLowerCase() !== DISCOVERY_MESSAGES[opts.kind].toLowerCase()) return;
    udp.send(JSON.stringify({ Address: `http://${host}:${listeners.ports.http}`, Id: serverId, Name: name, EndpointAddress: null }), rinfo.port, rinfo.address);
  });

  const listeners = fakeListeners(server, udp, host, opts.port);
  const fake: FakeEmbyServer = {
    start: listeners.start,
    stop: listeners.stop,
    kind: opts.kind,
    get url() {
      return `http://${host}:${listeners.ports.http}`;
    },
    get discoveryPort() {
      return listeners.ports.udp;
    },
    host,
    refreshes: [],
    unauthorized: () => unauthorized,
    requests: () => requests,
    refreshStatus: 204,
  };
  return fake;
}
