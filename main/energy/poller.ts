import type { Clock, Timer } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { ConnectionFactory, GatewayConnection } from './gateway/connection.js';
import { PlantReader, type GatewayReading } from './gateway/plant-reader.js';

export interface PollerConfig {
  host: string;
  port: number;
  pollIntervalMs: number;
  retryDelayMs: number;
  /** Reply timeout per request. */
  timeoutMs: number;
  /** Unit ids probed for inverters, inclusive. */
  inverterUnits: { from: number; to: number };
}

export interface PollerEvents {
  onReading(reading: GatewayReading, at: number): void;
  onDisconnected(error: string, at: number): void;
}

/**
 * Polls the gateway over one persistent connection. Polls never overlap: the next is scheduled
 * when the previous finishes. A failed connect or poll closes the socket, reports `connected: false`
 * and retries after a fixed delay; the poller reconnects by itself and never throws.
 */
export class Poller {
  private conn: GatewayConnection | null = null;
  private readonly reader = new PlantReader();
  private timer: Timer | null = null;
  private running = false;
  private inFlight: Promise<void> | null = null;
  private enumerated = false;
  private generation = 0;
  private lastFailure: string | null = null;

  constructor(
    private readonly getConfig: () => PollerConfig,
    private readonly connect: ConnectionFactory,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly events: PollerEvents,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.abandon();
  }

  /** Drop the connection and poll again now (after a gateway setting changed). */
  async reconnect(): Promise<void> {
    await this.abandon();
    if (this.running) this.schedule(0);
  }

  /** Cancels the pending timer, closes the connection and waits out a poll in flight. */
  private async abandon(): Promise<void> {
    this.generation++;
    if (this.timer) this.clock.clear(this.timer);
    this.timer = null;
    const conn = this.conn;
    this.conn = null;
    await conn?.close();
    await this.inFlight?.catch(() => undefined);
  }

  /**
   * Poll again now on the same connection (after the interval or retry delay changed), so a long
   * pending wait does not delay the new interval. A poll in flight picks the new values up itself.
   */
  reschedule(): void {
    if (!this.running || !this.timer) return;
    this.clock.clear(this.timer);
    this.timer = null;
    this.schedule(0);
  }

  /** Requests sent on the current connection. */
  get requests(): number {
    return this.conn?.requests ?? 0;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    const gen = this.generation;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      if (gen !== this.generation || !this.running) return;
      this.inFlight = this.cycle(gen).finally(() => {
        this.inFlight = null;
      });
    }, ms);
  }

  private async cycle(gen: number): Promise<void> {
    const cfg = this.getConfig();
    const started = this.clock.now();
    try {
      if (!cfg.host) throw new Error('no gateway host configured');
      if (!this.conn || !this.conn.isOpen) {
        await this.conn?.close();
        this.conn = null;
        const conn = this.connect({ host: cfg.host, port: cfg.port, timeoutMs: cfg.timeoutMs });
        await conn.connect();
        if (gen !== this.generation) {
          await conn.close();
          return;
        }
        this.conn = conn;
        this.reader.reset();
        this.enumerated = false;
        this.logger.info({ host: cfg.host, port: cfg.port }, 'gateway connected');
      }
      const conn = this.conn;
      if (!this.enumerated) {
        // Learn the plant map first, then find inverters once per connection.
        await this.reader.read(conn.read);
        const inverters = await this.reader.enumerate(conn.read, cfg.inverterUnits.from, cfg.inverterUnits.to);
        this.enumerated = true;
        this.logger.info({ inverters: inverters.map((i) => ({ unit: i.unitId, model: i.model })) }, 'plant enumerated');
      }
      const reading = await this.reader.read(conn.read);
      if (gen !== this.generation) return;
      if (reading.failed.length) this.logger.warn({ registers: reading.failed }, 'some registers answered an exception; kept their last values');
      if (this.lastFailure) this.logger.info('gateway polling recovered');
      this.lastFailure = null;
      this.events.onReading(reading, this.clock.now());
      const elapsed = this.clock.now() - started;
      this.schedule(Math.max(0, cfg.pollIntervalMs - elapsed));
    } catch (err) {
      if (gen !== this.generation) return;
      const message = (err as Error).message || String(err);
      // Log a failure once when it starts or changes, not on every retry of an unreachable gateway.
      const level = message === this.lastFailure ? 'debug' : 'warn';
      this.lastFailure = message;
      this.logger[level]({ err: message, retryInMs: cfg.retryDelayMs }, 'gateway poll failed');
      const conn = this.conn;
      this.conn = null;
      await conn?.close().catch(() => undefined);
      this.events.onDisconnected(message, this.clock.now());
      this.schedule(cfg.retryDelayMs);
    }
  }
}
