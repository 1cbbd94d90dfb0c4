import dgram from 'node:dgram';
import http from 'node:http';
import { fakeListeners } from './fake-listeners.js';
import { assertLoopback } from '../box/simulator/loopback.js';

export interface FakeMediaServerOptions {
  token: string;
  name?: string;
  sections?: Array<{ id: string; title: string; type: string }>;
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
  /** Section ids refreshed, in order (accepted refreshes only). */
  readonly refreshes: string[];
  /** Requests refused for a bad or missing token. */
  unauthorized(): number;
  /** Status the next refreshes answer (default 200); a failing media server. */
  refreshStatus: number;
}

/**
 * A media server on loopback speaking the parts of Plex the service uses: GDM answers, the section
 * list (JSON), section refresh, and the token check (header `X-Plex-Token` or query). Tests and the
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
      const body = { MediaContainer: { size: sections.length, Directory: sections.map((s) => ({ key: s.id, title: s.title, type: s.type, agent: 'tv.plex.agents.series' })) } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    const refresh = /^\/library\/sections\/(\d+)\/refresh$/.exec(url.pathname);
    if (req.method === 'GET' && refresh) {
      if (!sections.some((s) => s.id === refresh[1])) {
        res.writeHead(404).end();
        return;
      }
      if (fake.refreshStatus >= 200 && fake.refreshStatus < 300) fake.refreshes.push(refresh[1]!);
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
    unauthorized: () => unauthorized,
    refreshStatus: 200,
  };
  return fake;
}
