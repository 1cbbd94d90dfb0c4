import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock, Timer } from '../core/clock.js';

/**
 * Server-Sent Events to dashboard clients: unnamed `data:` events carrying the full live state,
 * one on connect and one per poll, and a `: ping` comment every 15 s so proxies keep the stream.
 * Each event is serialised once, whatever the number of clients; a client that goes away is dropped.
 */
export class EventStream {
  private readonly clients = new Set<FastifyReply['raw']>();
  private heartbeat: Timer | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly heartbeatMs = 15_000,
  ) {}

  get clientCount(): number {
    return this.clients.size;
  }

  handle(req: FastifyRequest, reply: FastifyReply, initial: unknown): void {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-robots-tag': 'noindex, nofollow',
    });
    res.write(`retry: 3000\n\ndata: ${JSON.stringify(initial)}\n\n`);
    this.clients.add(res);
    const drop = () => this.clients.delete(res);
    req.raw.on('close', drop);
    res.on('error', drop);
    if (!this.heartbeat) {
      this.heartbeat = this.clock.setInterval(() => this.write(': ping\n\n'), this.heartbeatMs);
      this.heartbeat.unref?.();
    }
  }

  broadcast(data: unknown): void {
    if (this.clients.size === 0) return;
    this.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  private write(frame: string): void {
    for (const res of this.clients) {
      if (res.destroyed || res.writableEnded) this.clients.delete(res);
      else res.write(frame);
    }
  }

  close(): void {
    if (this.heartbeat) this.clock.clear(this.heartbeat);
    this.heartbeat = null;
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
