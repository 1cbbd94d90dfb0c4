import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock, Timer } from './clock.js';
import { clientAddress } from './connection-cap.js';
import { AppError } from './errors.js';
import type { Logger } from './logger.js';

/**
 * Most event streams one client address may hold at once: a few dashboards (the tray window, a
 * browser tab or two) per device. Kept below the global cap (`general.eventStreamMaxClients`,
 * default 100) so that one address can never use up every slot and refuse another.
 */
export const MAX_STREAMS_PER_ADDRESS = 4;
/** A refused address is logged at most once in this window (one warn line, no stack). */
const REFUSAL_LOG_EVERY_MS = 60_000;

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
  /** Most streams per client address (default MAX_STREAMS_PER_ADDRESS). */
  maxPerAddress?: number;
  /** Where refusals are logged (one warn line per address and minute). */
  logger?: Logger;
}

/** Room for a few full-state events (each a few KB) a slow but live client has not read yet. */
export const DEFAULT_MAX_BUFFERED_BYTES = 256 * 1024;

interface Client {
  res: FastifyReply['raw'];
  address: string;
  /** Sees the data as is (asked per event: a session can end); otherwise `publicView` of it. */
  full: () => boolean;
}

/** A named Server-Sent Event (`event: <name>`), sent beside the unnamed state events. */
export interface NamedEvent {
  event: string;
  data: unknown;
}

/**
 * Server-Sent Events to the pages (the energy dashboard's live state, the recordings pages'
 * progress). For the energy dashboard: unnamed `data:` events carrying the full live state,
 * one on connect and one per poll, each followed by any named events (`event: snapshot`: the
 * curated snapshot of that poll, the same for every view, as `GET /api/snapshot` serves it), and
 * a `: ping` comment every 15 s so proxies keep the stream.
 * Each event is serialised once per view (full, public), whatever the number of clients; a client
 * that goes away is dropped, and so is one whose unread buffer passes `maxBufferedBytes`.
 */
export class EventStream {
  private readonly clients = new Set<Client>();
  private readonly perAddress = new Map<string, number>();
  /** Last refusal log per address (epoch ms), so a flood writes one line a minute, not one per try. */
  private readonly refusalLogged = new Map<string, number>();
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

  /**
   * Streams to this request; while `full()` is false it gets the public view. Throws 429
   * `too_many_streams` over the per-address cap and 503 `too_many_clients` over the global cap.
   */
  handle(req: FastifyRequest, reply: FastifyReply, initial: unknown, full: () => boolean = () => true, named: readonly NamedEvent[] = []): void {
    const address = clientAddress(req.ip);
    const perAddress = this.opts.maxPerAddress ?? MAX_STREAMS_PER_ADDRESS;
    const mine = this.perAddress.get(address) ?? 0;
    if (mine >= perAddress) {
      this.logRefusal(address, `event stream refused: this address already holds ${mine} streams (the most per address)`);
      throw new AppError(429, 'too_many_streams', `This device already has ${mine} live event streams open (the most per device); close a dashboard tab and retry.`, {
        headers: { 'retry-after': '30' },
        quiet: true,
      });
    }
    const max = this.opts.maxClients?.() ?? Infinity;
    if (this.clients.size >= max) {
      this.logRefusal(address, `event stream refused: ${this.clients.size} clients connected (eventStreamMaxClients)`);
      throw new AppError(503, 'too_many_clients', `The live event stream already has ${this.clients.size} clients (the most allowed); close a dashboard and retry.`, {
        headers: { 'retry-after': '30' },
        quiet: true,
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
    const client: Client = { res, full, address };
    res.write(`retry: 3000\n\ndata: ${JSON.stringify(full() ? initial : this.publicOf(initial))}\n\n${named.map(namedFrame).join('')}`);
    this.add(client);
    const drop = () => this.remove(client);
    req.raw.on('close', drop);
    res.on('error', drop);
    res.on('close', drop);
    if (!this.heartbeat) {
      this.heartbeat = this.clock.setInterval(() => this.write(() => ': ping\n\n'), this.heartbeatMs);
      this.heartbeat.unref?.();
    }
  }

  /** Streams open from one client address. */
  streamsFrom(address: string): number {
    return this.perAddress.get(clientAddress(address)) ?? 0;
  }

  private add(c: Client): void {
    this.clients.add(c);
    this.perAddress.set(c.address, (this.perAddress.get(c.address) ?? 0) + 1);
  }

  private remove(c: Client): void {
    if (!this.clients.delete(c)) return;
    const left = (this.perAddress.get(c.address) ?? 1) - 1;
    if (left <= 0) this.perAddress.delete(c.address);
    else this.perAddress.set(c.address, left);
  }

  private logRefusal(address: string, msg: string): void {
    const now = this.clock.now();
    const last = this.refusalLogged.get(address);
    if (last !== undefined && now - last < REFUSAL_LOG_EVERY_MS) return;
    if (this.refusalLogged.size > 1000) this.refusalLogged.clear();
    this.refusalLogged.set(address, now);
    this.opts.logger?.warn({ address }, msg);
  }

  broadcast(data: unknown): void {
    if (this.clients.size === 0) return;
    let full: string | null = null;
    let pub: string | null = null;
    this.write((c) => (c.full() ? (full ??= `data: ${JSON.stringify(data)}\n\n`) : (pub ??= `data: ${JSON.stringify(this.publicOf(data))}\n\n`)));
  }

  /** One named event to every client, serialised once (named events carry nothing a view hides). */
  broadcastNamed(event: NamedEvent): void {
    if (this.clients.size === 0) return;
    const frame = namedFrame(event);
    this.write(() => frame);
  }

  private publicOf(data: unknown): unknown {
    return this.opts.publicView ? this.opts.publicView(data) : data;
  }

  private write(frame: (c: Client) => string): void {
    for (const c of this.clients) {
      const { res } = c;
      if (res.destroyed || res.writableEnded) {
        this.remove(c);
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
    this.remove(c);
    this.slowDropped++;
    // Destroy, not end: ending would wait for the unread buffer to drain first.
    c.res.destroy();
  }

  close(): void {
    if (this.heartbeat) this.clock.clear(this.heartbeat);
    this.heartbeat = null;
    for (const c of this.clients) c.res.end();
    this.clients.clear();
    this.perAddress.clear();
  }
}

const namedFrame = ({ event, data }: NamedEvent) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
