import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a price simulator can be told to do instead of answering: go down (the connection is cut),
 * answer an HTTP error (401 token refused, 429 rate limited, 500), answer garbage (not JSON), an
 * endless-looking huge body, or nothing at all (the client's time bound must end the wait).
 */
export type SimFailure = 'down' | 401 | 429 | 500 | 'garbage' | 'huge' | 'silent';

export interface SimRequest {
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

export interface SimServer {
  readonly origin: string;
  /** Requests seen, oldest first. */
  readonly requests: SimRequest[];
  /** Fail every request this way from now on (null: answer normally again). */
  fail(mode: SimFailure | null): void;
  close(): Promise<void>;
}

export type SimHandler = (req: SimRequest) => { status: number; body: unknown; headers?: Record<string, string> };

/** An HTTP server on loopback answering JSON through `handle`, with the failure modes above. */
export async function startSimServer(handle: SimHandler, host = '127.0.0.1'): Promise<SimServer> {
  let mode: SimFailure | null = null;
  const requests: SimRequest[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://sim');
    const seen: SimRequest = { path: u.pathname, query: u.searchParams, authorization: req.headers.authorization };
    requests.push(seen);
    if (mode === 'down') return void req.socket.destroy();
    if (mode === 'silent') return;
    if (mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('<html><body>Bad gateway</body>');
    }
    if (mode === 'huge') {
      // 8 MiB of a valid-looking array: the client must stop reading at its bound.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.from('[' + '0,'.repeat(64 * 1024));
      let sent = 0;
      const more = () => {
        while (sent < 128) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('0]');
      };
      res.on('error', () => {});
      return more();
    }
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (mode === 401) return send(401, { message: 'Unauthorized' });
    if (mode === 429) return send(429, { message: 'Too many requests' }, { 'retry-after': '120' });
    if (mode === 500) return send(500, { message: 'Internal server error' });
    const r = handle(seen);
    send(r.status, r.body, r.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    requests,
    fail: (m) => {
      mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
