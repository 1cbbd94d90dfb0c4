import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { createOutbound, pinnedLookup, type CheckedAddress, type Outbound } from '../../core/outbound.js';

/** How a body ended: complete (all announced bytes, or a clean close without a length) or not. */
export interface BodyEnd {
  complete: boolean;
  error?: string;
}

/** A streamed media response. */
export interface MediaResponse {
  status: number;
  header(name: string): string | null;
  /**
   * Hands the body to `onChunk` until it ends. The bytes are only valid during the call (the
   * buffer is reused), so the sink must copy or write them synchronously.
   */
  consume(onChunk: (buf: Buffer, start: number, end: number) => void): Promise<BodyEnd>;
  /** Drops the body and the connection. */
  cancel(): void;
}

/**
 * How the sync fetches media bodies: an injectable dependency. `address` is the address the
 * outbound gate checked for the URL's host: the connection goes there (no second resolution).
 */
export type MediaGet = (url: string, opts: { headers: Record<string, string>; signal: AbortSignal; address?: CheckedAddress }) => Promise<MediaResponse>;

const reasonOf = (signal: AbortSignal, err: unknown) => {
  const r: unknown = signal.aborted ? signal.reason : err;
  return r instanceof Error ? r.message : String(r ?? 'aborted');
};

/** GET with Node's http client (https too, and chunked bodies). */
export const nodeMediaGet: MediaGet = (url, opts) =>
  new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    const req = client.get(url, { headers: opts.headers, signal: opts.signal, agent: false, ...(opts.address ? { lookup: pinnedLookup(opts.address) } : {}) }, (res) => {
      res.pause();
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const v = res.headers[name.toLowerCase()];
          return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
        },
        consume: (onChunk) =>
          new Promise<BodyEnd>((done) => {
            let settled = false;
            const settle = (end: BodyEnd) => {
              if (!settled) {
                settled = true;
                done(end);
              }
            };
            res.on('data', (c: Buffer) => onChunk(c, 0, c.length));
            res.on('end', () => settle({ complete: true }));
            res.on('error', (err) => settle({ complete: false, error: reasonOf(opts.signal, err) }));
            res.on('close', () => settle(res.complete ? { complete: true } : { complete: false, error: reasonOf(opts.signal, 'the box closed the connection early') }));
            res.resume();
          }),
        cancel: () => {
          res.destroy();
          req.destroy();
        },
      });
    });
    req.on('error', reject);
  });

const HEADER_LIMIT = 64 * 1024;
const READ_BUFFER_BYTES = 1024 * 1024;
/** Read buffers kept for the next requests once theirs are closed (downloads run one at a time). */
const MAX_SPARE_READ_BUFFERS = 2;

/**
 * GET over a plain socket reading into one reused 1 MiB buffer: no allocation per chunk, so a
 * multi-GB body causes no garbage-collection storm (Node's http client allocates a buffer per
 * read). HTTP/1.1 with `Connection: close`; a `Content-Length` body or one that ends at close.
 * Anything else (https, chunked bodies, unusual framing) goes to `fallback`.
 * A request's read buffer goes back to the client when its socket closes and the next request
 * reads into it: a buffer per request was garbage the download thread's small heap did not
 * collect for hours (about 1 MB of RSS more per download; see docs/performance.md, soak).
 * `allocate` makes a new read buffer (tests count them).
 */
export function createSocketMediaGet(fallback: MediaGet = nodeMediaGet, allocate: (bytes: number) => Buffer = Buffer.allocUnsafeSlow): MediaGet {
  const spare: Buffer[] = [];
  return (url, opts) => {
    const u = new URL(url);
    if (u.protocol !== 'http:') return fallback(url, opts);
    return new Promise<MediaResponse>((resolve, reject) => {
      const buffer = spare.pop() ?? allocate(READ_BUFFER_BYTES);
      let released = false;
      // Called once the socket is destroyed (no read lands in the buffer after that): the next
      // request may read into it, even one that starts before this socket's 'close' event.
      const release = () => {
        if (released) return;
        released = true;
        if (spare.length < MAX_SPARE_READ_BUFFERS) spare.push(buffer);
      };
      let head: Buffer = Buffer.alloc(0);
      let phase: 'head' | 'body' | 'done' = 'head';
      let status = 0;
      const headers = new Map<string, string>();
      let contentLength: number | null = null;
      let received = 0;
      let pending: Buffer | null = null;
      let sink: ((buf: Buffer, start: number, end: number) => void) | null = null;
      let finish: ((end: BodyEnd) => void) | null = null;
      let ended: BodyEnd | null = null;

      const end = (e: BodyEnd) => {
        if (phase === 'done') return;
        phase = 'done';
        ended = e;
        finish?.(e);
      };
      const deliver = (b: Buffer, start: number, stop: number) => {
        let n = stop - start;
        if (contentLength !== null) n = Math.min(n, contentLength - received);
        if (n > 0) {
          received += n;
          sink!(b, start, start + n);
        }
        if (contentLength !== null && received >= contentLength) {
          socket.destroy();
          release();
          end({ complete: true });
        }
      };
      const onHead = () => {
        const text = head.toString('latin1');
        const split = text.indexOf('\r\n\r\n');
        if (split < 0) {
          if (head.length > HEADER_LIMIT) socket.destroy(new Error('response headers too large'));
          return;
        }
        const lines = text.slice(0, split).split('\r\n');
        const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
        if (!m) return void socket.destroy(new Error(`not an HTTP response: ${JSON.stringify((lines[0] ?? '').slice(0, 40))}`));
        status = Number(m[1]);
        for (const line of lines.slice(1)) {
          const i = line.indexOf(':');
          if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
        }
        const te = headers.get('transfer-encoding');
        const cl = headers.get('content-length');
        if ((te && te.toLowerCase() !== 'identity') || (cl !== undefined && !/^\d+$/.test(cl)) || status < 200) {
          phase = 'done';
          socket.destroy();
          fallback(url, opts).then(resolve, reject);
          return;
        }
        contentLength = cl === undefined ? null : Number(cl);
        phase = 'body';
        socket.pause();
        const rest = head.subarray(Buffer.byteLength(text.slice(0, split + 4), 'latin1'));
        pending = rest.length ? Buffer.from(rest) : null;
        head = Buffer.alloc(0);
        resolve({
          status,
          header: (name) => headers.get(name.toLowerCase()) ?? null,
          consume(onChunk) {
            sink = onChunk;
            return new Promise<BodyEnd>((done) => {
              finish = done;
              if (pending) {
                const p = pending;
                pending = null;
                deliver(p, 0, p.length);
              }
              if (ended) return done(ended);
              if (contentLength === 0) {
                end({ complete: true });
                socket.destroy();
                return;
              }
              socket.resume();
            });
          },
          cancel: () => {
            end({ complete: false, error: 'cancelled' });
            socket.destroy();
          },
        });
      };

      const socket = net.connect({
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: Number(u.port || 80),
        ...(opts.address ? { lookup: pinnedLookup(opts.address) } : {}),
        onread: {
          buffer,
          callback: (n: number, b: Uint8Array) => {
            const buf = b as Buffer;
            if (phase === 'head') {
              head = Buffer.concat([head, buf.subarray(0, n)]);
              onHead();
            } else if (phase === 'body') {
              deliver(buf, 0, n);
            }
            return true;
          },
        },
      });
      const onAbort = () => socket.destroy(opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted'));
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener('abort', onAbort, { once: true });
      socket.on('connect', () => {
        const extra = Object.entries(opts.headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
        socket.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAccept: */*\r\nConnection: close\r\n${extra}\r\n`);
      });
      socket.on('error', (err) => {
        if (phase === 'head') reject(new Error(reasonOf(opts.signal, err)));
        else end({ complete: false, error: reasonOf(opts.signal, err) });
      });
      socket.on('close', () => {
        release();
        opts.signal.removeEventListener('abort', onAbort);
        if (phase === 'head') reject(new Error(reasonOf(opts.signal, 'the box closed the connection before answering')));
        else if (contentLength === null) end({ complete: true });
        else end(received >= contentLength ? { complete: true } : { complete: false, error: reasonOf(opts.signal, 'the box closed the connection early') });
      });
    });
  };
}

/** A media GET through the outbound gate: the box is a LAN device; the connection goes to the checked address. */
export function gatedMediaGet(inner: MediaGet, gate: Outbound = createOutbound()): MediaGet {
  return async (url, opts) => inner(url, { ...opts, address: await gate.check({ purpose: 'lan-device' }, new URL(url)) });
}

/** The default: the socket client (falling back to Node's http client), through the outbound gate. */
export const defaultMediaGet: MediaGet = gatedMediaGet(createSocketMediaGet());
