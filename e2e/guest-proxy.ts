import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A forward HTTP proxy on loopback whose connections to the services leave from `localAddress`
 * (127.0.0.2: another device on the LAN), so a browser page can be opened "from another device".
 * Requests only: no CONNECT, loopback targets only.
 */
export async function startGuestProxy(localAddress = '127.0.0.2'): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const target = new URL(req.url ?? '/');
    if (!target.hostname.startsWith('127.')) {
      res.writeHead(403).end();
      return;
    }
    const out = http.request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers, localAddress, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
