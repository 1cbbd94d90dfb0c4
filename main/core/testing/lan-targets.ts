import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * Loopback targets a guest would point a test or discovery route at: a capture listener that
 * records everything it receives (it must never see a secret), a "banner" port that writes garbage
 * (not HTTP), a silent port that accepts and never answers, and a closed port.
 */
export interface Target {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export interface CapturedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface CaptureTarget extends Target {
  readonly requests: CapturedRequest[];
  /** Everything received, as one text (headers, URL and body of every request). */
  everything(): string;
}

function tracked<T extends net.Server>(server: T): { server: T; close(): Promise<void> } {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const listen = (server: net.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** An HTTP listener that records every request and answers `status` with `body`. */
export async function startCapture(answer: { status?: number; body?: string; contentType?: string } = {}): Promise<CaptureTarget> {
  const requests: CapturedRequest[] = [];
  const t = tracked(
    http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' });
        res.end(answer.body ?? '{}');
      });
    }),
  );
  const port = await listen(t.server);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    everything: () => requests.map((r) => `${r.method} ${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`).join('\n'),
    close: t.close,
  };
}

/** A TCP service that writes a banner of garbage on connect and keeps the connection open. */
export async function startBanner(): Promise<Target> {
  const t = tracked(net.createServer((s) => s.write('SSH-2.0-OpenSSH_9.2p1\r\n\u0000\u0001\u00ffgarbage that is not HTTP\r\n')));
  const port = await listen(t.server);
  return { port, url: `http://127.0.0.1:${port}`, close: t.close };
}

/** A TCP port that accepts connections and never says anything. */
export async function startSilent(): Promise<Target> {
  const t = tracked(net.createServer(() => undefined));
  const port = await listen(t.server);
  return { port, url: `http://127.0.0.1:${port}`, close: t.close };
}

/** A loopback port with nothing listening (bound once to find a free one, then closed). */
export async function closedPort(): Promise<Target> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise<void>((r) => server.close(() => r()));
  return { port, url: `http://127.0.0.1:${port}`, close: async () => undefined };
}

/** A message with every port number of the given targets replaced by `PORT`, to compare answers. */
export function withoutPorts(text: string, ports: readonly number[]): string {
  return ports.reduce((t, p) => t.split(String(p)).join('PORT'), text);
}
