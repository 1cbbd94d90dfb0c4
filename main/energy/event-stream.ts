import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock, Timer } from '../core/clock.js';
import { AppError } from '../core/errors.js';

export interface EventStreamOptions {
  heartbeatMs?: number;
  /** Most clients at once (the `general.eventStreamMaxClients` setting); one more gets 503. */
  maxClients?: () => number;
  /**
   * Bytes a client may leave unread in its socket buffer; a client past it is dropped (a dashboard
   * that stops reading must not make the process hold every event for it).
   */
  maxBufferedBytes?: number;
  /**
   * What a client without full view sees (e.g. the state with the gateway host blanked while a
   * passcode is set). Called once per event, not once per client.
   */
  publicView?: (data: unknown) => unknown;
}

/** Room for a few full-state events (each a few KB) a slow but live client has not read yet. */
export const DEFAULT_MAX_BUFFERED_BYTES = 256 * 1024;

interface Client {
  res: FastifyReply['raw'];
  /** Sees the data as is (asked per event: a session can end); otherwise `publicView` of it. */
  full: () => boolean;
}

/**
 * Server-Sent Events to dashboard clients: unnamed `data:` events carrying the full live state,
 * one on connect and one per poll, and a `: ping` comment every 15 s so proxies keep the stream.
 * Each event is serialised once per view (full, public), whatever the number of clients; a client
 * that goes away is dropped, and so is one whose unread buffer passes `maxBufferedBytes`.
 */
export class EventStream {
  private readonly clients = new Set<Client>();
  private heartbeat: Timer | null = null;
  private readonly heartbeatMs: number;
  private readonly maxBufferedBytes: number;
  /** Clients dropped for not reading (for tests and logs). */
  slowDropped = 0;

  constructor(
    private readonly clock: Clock,
    private readonly opts: EventStreamOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? 15_000;
    this.maxBufferedBytes = opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Streams to this request; while `full()` is false it gets the public view. Throws 503 over the client cap. */
  handle(req: FastifyRequest, reply: FastifyReply, initial: unknown, full: () => boolean = () => true): void {
    const max = this.opts.maxClients?.() ?? Infinity;
    if (this.clients.size >= max) {
      throw new AppError(503, 'too_many_clients', `The live event stream already has ${this.clients.size} clients (the most allowed); close a dashboard and retry.`, {
        headers: { 'retry-after': '30' },
      });
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-robots-tag': 'noindex, nofollow',
    });
    const client: Client = { res, full };
    res.write(`retry: 3000\n\ndata: ${JSON.stringify(full() ? initial : this.publicOf(initial))}\n\n`);
    this.clients.add(client);
    const drop = () => this.clients.delete(client);
    req.raw.on('close', drop);
    res.on('error', drop);
    res.on('close', drop);
    if (!this.heartbeat) {
      this.heartbeat = this.clock.setInterval(() => this.write(() => ': ping\n\n'), this.heartbeatMs);
      this.heartbeat.unref?.();
    }
  }

  broadcast(data: unknown): void {
    if (this.clients.size === 0) return;
    let full: string | null = null;
    let pub: string | null = null;
    this.write((c) => (c.full() ? (full ??= `data: ${JSON.stringify(data)}\n\n`) : (pub ??= `data: ${JSON.stringify(this.publicOf(data))}\n\n`)));
  }

  private publicOf(data: unknown): unknown {
    return this.opts.publicView ? this.opts.publicView(data) : data;
  }

  private write(frame: (c: Client) => string): void {
    for (const c of this.clients) {
      const { res } = c;
      if (res.destroyed || res.writableEnded) {
        this.clients.delete(c);
        continue;
      }
      // A client that has not read what it was sent already: stop queueing for it.
      // (writableLength counts what the socket still holds too.)
      if (res.writableLength > this.maxBufferedBytes) {
        this.dropSlow(c);
        continue;
      }
      // At most the bound plus one frame is ever queued for a client.
      res.write(frame(c));
    }
  }

  private dropSlow(c: Client): void {
    this.clients.delete(c);
    this.slowDropped++;
    // Destroy, not end: ending would wait for the unread buffer to drain first.
    c.res.destroy();
  }

  close(): void {
    if (this.heartbeat) this.clock.clear(this.heartbeat);
    this.heartbeat = null;
    for (const c of this.clients) c.res.end();
    this.clients.clear();
  }
}
