import dgram from 'node:dgram';
import http from 'node:http';
import { fakeListeners } from './fake-listeners.js';
import { assertLoopback } from '../box/simulator/loopback.js';

export interface FakeMediaServerOptions {
  token: string;
  name?: string;
  /** The libraries; `locations` are the folders a section shows (Plex's `Location` paths), none by default. */
  sections?: Array<{ id: string; title: string; type: string; locations?: string[] }>;
  host?: string;
  /** HTTP port (default: any free one); a test reproducing a stored address sets it. */
  port?: number;
}

export interface FakeMediaServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** UDP port answering GDM searches (unicast, loopback). */
  readonly gdmPort: number;
  readonly host: string;
  /** Section ids refreshed, in order (accepted refreshes only, whole or of one folder). */
  readonly refreshes: string[];
  /** Each accepted refresh: its section and the folder it named (`?path=`), null for the whole section. */
  readonly refreshRequests: Array<{ section: string; path: string | null }>;
  /** Requests refused for a bad or missing token. */
  unauthorized(): number;
  /** Status the next refreshes answer (default 200); a failing media server. */
  refreshStatus: number;
}

/**
 * A media server on loopback speaking the parts of Plex the service uses: GDM answers, the section
 * list (JSON, with each section's `Location` paths), section refresh (whole, or of one folder with
 * `?path=`, which must lie inside one of the section's locations: 400 otherwise), and the token
 * check (header `X-Plex-Token` or query). Tests and the
 * demo point `media_server_url` here; nothing joins a multicast group.
 */
export function createFakeMediaServer(opts: FakeMediaServerOptions): FakeMediaServer {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host);
  const sections = opts.sections ?? [
    { id: '1', title: 'Movies', type: 'movie' },
    { id: '2', title: 'TV Shows', type: 'show' },
  ];
  let unauthorized = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const token = req.headers['x-plex-token'] ?? url.searchParams.get('X-Plex-Token');
    if (token !== opts.token) {
      unauthorized++;
      res.writeHead(401, { 'content-type': 'text/html' }).end('<html><h1>401 Unauthorized</h1></html>');
      return;
    }
    if (req.method === 'GET' && url.pathname === '/library/sections') {
      const body = { MediaContainer: { size: sections.length, Directory: sections.map((s) => ({ key: s.id, title: s.title, type: s.type, agent: 'tv.plex.agents.series', Location: (s.locations ?? []).map((p, i) => ({ id: i + 1, path: p })) })) } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    const refresh = /^\/library\/sections\/(\d+)\/refresh$/.exec(url.pathname);
    if (req.method === 'GET' && refresh) {
      const section = sections.find((s) => s.id === refresh[1]);
      if (!section) {
        res.writeHead(404).end();
        return;
      }
      const folder = url.searchParams.get('path');
      if (folder !== null && !(section.locations ?? []).some((l) => folder === l || folder.startsWith(l.endsWith('/') ? l : `${l}/`))) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('path is not in this section');
        return;
      }
      if (fake.refreshStatus >= 200 && fake.refreshStatus < 300) {
        fake.refreshes.push(section.id);
        fake.refreshRequests.push({ section: section.id, path: folder });
      }
      res.writeHead(fake.refreshStatus).end();
      return;
    }
    res.writeHead(404).end();
  });
  const gdm = dgram.createSocket('udp4');
  gdm.on('message', (msg, rinfo) => {
    if (!msg.toString('utf8').startsWith('M-SEARCH')) return;
    const reply = [
      'HTTP/1.0 200 OK',
      'Content-Type: plex/media-server',
      `Name: ${opts.name ?? 'Fake Media Server'}`,
      `Port: ${listeners.ports.http}`,
      'Resource-Identifier: fake-media-server-0001',
      'Version: 1.40.0.0000',
      '',
      '',
    ].join('\r\n');
    gdm.send(reply, rinfo.port, rinfo.address);
  });
  const listeners = fakeListeners(server, gdm, host, opts.port);
  const fake: FakeMediaServer = {
    start: listeners.start,
    stop: listeners.stop,
    get url() {
      return `http://${host}:${listeners.ports.http}`;
    },
    get gdmPort() {
      return listeners.ports.udp;
    },
    host,
    refreshes: [],
    refreshRequests: [],
    unauthorized: () => unauthorized,
    refreshStatus: 200,
  };
  return fake;
}
