import type { Clock, Timer } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { ConnectionFactory, GatewayConnection } from '../gateway/connection.js';
import { noGatewayMemory, type GatewayMemory } from '../gateway/gateway-memory.js';
import { PlantReader, type GatewayReading } from '../gateway/plant-reader.js';
import { PLANT_UNIT, VERSION_PROBES, type Firmware } from '../gateway/registers.js';
import { ModbusException } from '../gateway/block-reader.js';

export interface PollerConfig {
  host: string;
  port: number;
  pollIntervalMs: number;
  retryDelayMs: number;
  /** Reply timeout per request. */
  timeoutMs: number;
  /** Unit ids probed for inverters, inclusive. */
  inverterUnits: { from: number; to: number };
  /** Reply timeout of a probe of a unit id that may have no device (well under `timeoutMs`). */
  probeTimeoutMs: number;
}

export interface PollerEvents {
  /** `durationMs` (real time, not the clock's): from the poll's start (a connect included) to its reading, before any background probe. */
  onReading(reading: GatewayReading, at: number, durationMs: number): void;
  /** `durationMs`: from the failed poll's start to its failure (a refused connect, a timeout, a bad reply). */
  onDisconnected(error: string, at: number, durationMs: number): void;
}

/**
 * Polls the gateway over one persistent connection, never two polls closer than the interval
 * (start to start, from the very first). A failed connect or poll closes the socket, reports
 * `connected: false` and retries after a fixed delay; the poller reconnects by itself and never throws.
 *
 * The first poll after a connect reads the plant (and the inverters remembered for this gateway)
 * and publishes at once. Finding inverters is background work done between polls, one probe at a
 * time with its own short timeout: it starts a probe only while the next poll is not due, except
 * the first of each gap, so a poll is never delayed by more than one probe. A probe that gets no
 * reply is "no device there", never a failed connection.
 */
export class Poller {
  private conn: GatewayConnection | null = null;
  private readonly reader = new PlantReader();
  private timer: Timer | null = null;
  private running = false;
  private inFlight: Promise<void> | null = null;
  private generation = 0;
  private lastFailure: string | null = null;
  private lastStart = Number.NEGATIVE_INFINITY;
  /** Unit ids still to probe on this connection. */
  private probeQueue: number[] = [];
  /** Firmware of the knowledge adopted from memory, until a background probe confirms it. */
  private firmwareToCheck: Firmware | null = null;
  private savedVersion = '';
  private gatewayKey: { host: string; port: number } | null = null;
  private enumerationLogged = false;
  /** A probe is on the wire. */
  private probing = false;

  constructor(
    private readonly getConfig: () => PollerConfig,
    private readonly connect: ConnectionFactory,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly events: PollerEvents,
    private readonly memory: GatewayMemory = noGatewayMemory,
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

  /** Drop the connection and poll again as soon as the interval allows (after a gateway setting changed). */
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

  /**
   * Re-checks which unit ids hold inverters, in the background between polls (on demand from the
   * settings page). Returns how many unit ids were queued for a probe.
   */
  rescan(): number {
    const cfg = this.getConfig();
    const known = new Set(this.reader.inverterUnits);
    const queued = new Set(this.probeQueue);
    for (let u = Math.max(1, cfg.inverterUnits.from); u <= Math.min(246, cfg.inverterUnits.to); u++) if (!known.has(u)) queued.add(u);
    this.probeQueue = [...queued].sort((a, b) => a - b);
    this.enumerationLogged = false;
    return this.probeQueue.length;
  }

  /** Unit ids of the inverters read each poll, and how many unit ids are still to probe. */
  get enumeration(): { inverterUnits: number[]; pendingProbes: number } {
    return { inverterUnits: this.reader.inverterUnits, pendingProbes: this.probeQueue.length + (this.firmwareToCheck ? 1 : 0) + (this.probing ? 1 : 0) };
  }

  /** A poll (or retry) is scheduled and none is running: what a test on a manual clock waits for. */
  get waiting(): boolean {
    return this.timer !== null && this.inFlight === null;
  }

  /** Requests sent on the current connection. */
  get requests(): number {
    return this.conn?.requests ?? 0;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    const gen = this.generation;
    // At least the interval between the starts of two polls, whatever asked for this one.
    const wait = Math.max(ms, this.lastStart + this.getConfig().pollIntervalMs - this.clock.now(), 0);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      if (gen !== this.generation || !this.running) return;
      this.inFlight = this.cycle(gen).finally(() => {
        this.inFlight = null;
      });
    }, wait);
  }

  private async cycle(gen: number): Promise<void> {
    const cfg = this.getConfig();
    const started = this.clock.now();
    // Real elapsed time for the duration (sub-millisecond; the clock may be a demo's fast one).
    const t0 = performance.now();
    this.lastStart = started;
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
        this.onConnected(cfg);
      }
      const conn = this.conn;
      const reading = await this.reader.read(conn.read);
      if (gen !== this.generation) return;
      if (reading.failed.length) this.logger.warn({ registers: reading.failed }, 'some registers answered an exception; kept their last values');
      if (reading.lost.length) {
        this.logger.warn({ units: reading.lost }, 'inverter stopped answering; probing for it again in the background');
        this.probeQueue.push(...reading.lost.filter((u) => !this.probeQueue.includes(u)));
      }
      if (this.lastFailure) this.logger.info('gateway polling recovered');
      this.lastFailure = null;
      this.events.onReading(reading, this.clock.now(), performance.now() - t0);
      await this.background(conn, cfg, started, gen);
      if (gen !== this.generation) return;
      this.persist(cfg);
      // Fresh settings: an interval changed while this poll ran applies to the next wait.
      this.schedule(started + this.getConfig().pollIntervalMs - this.clock.now());
    } catch (err) {
      if (gen !== this.generation) return;
      const took = performance.now() - t0;
      const message = (err as Error).message || String(err);
      // Log a failure once when it starts or changes, not on every retry of an unreachable gateway.
      const level = message === this.lastFailure ? 'debug' : 'warn';
      this.lastFailure = message;
      this.logger[level]({ err: message, retryInMs: cfg.retryDelayMs }, 'gateway poll failed');
      const conn = this.conn;
      this.conn = null;
      await conn?.close().catch(() => undefined);
      this.events.onDisconnected(message, this.clock.now(), took);
      this.schedule(cfg.retryDelayMs);
    }
  }

  /** A new connection: adopt what was learnt about this gateway before, and queue the enumeration. */
  private onConnected(cfg: PollerConfig): void {
    this.reader.reset();
    this.gatewayKey = { host: cfg.host, port: cfg.port };
    const known = this.memory.get(cfg.host, cfg.port);
    this.firmwareToCheck = null;
    if (known) {
      this.reader.adopt(known);
      this.firmwareToCheck = known.firmware;
    }
    this.savedVersion = known ? this.reader.version : '';
    this.probeQueue = [];
    this.rescan();
    this.logger.info({ host: cfg.host, port: cfg.port, knownInverters: this.reader.inverterUnits }, 'gateway connected');
  }

  /** Runs queued probes until the next poll is due (the first one regardless). */
  private async background(conn: GatewayConnection, cfg: PollerConfig, started: number, gen: number): Promise<void> {
    let first = true;
    while (gen === this.generation && conn === this.conn && conn.isOpen) {
      const due = started + this.getConfig().pollIntervalMs;
      if (this.firmwareToCheck) {
        if (!first && this.clock.now() + cfg.timeoutMs > due) return;
        first = false;
        await this.checkFirmware(conn, this.firmwareToCheck);
        continue;
      }
      const unit = this.probeQueue[0];
      if (unit === undefined) break;
      if (!first && this.clock.now() + cfg.probeTimeoutMs > due) return;
      first = false;
      if (this.reader.inverterUnits.includes(unit)) {
        this.probeQueue.shift();
        continue;
      }
      this.probing = true;
      const found = await this.reader.probe(conn.read, unit, cfg.probeTimeoutMs).finally(() => {
        this.probing = false;
      });
      if (this.probeQueue[0] === unit) this.probeQueue.shift();
      if (found && gen === this.generation) {
        this.reader.addInverter(found);
        this.logger.info({ unit, model: found.model }, 'inverter found');
      }
    }
    if (!this.probeQueue.length && !this.enumerationLogged && gen === this.generation) {
      this.enumerationLogged = true;
      this.logger.info({ inverters: this.reader.inverterUnits }, 'plant enumerated');
    }
  }

  /** Confirms the remembered firmware generation (newest probe register first); relearns on a change. */
  private async checkFirmware(conn: GatewayConnection, expected: Firmware): Promise<void> {
    let actual: Firmware = 'V1.8';
    for (const [address, version] of VERSION_PROBES) {
      try {
        await conn.read('input', PLANT_UNIT, address, 1);
        actual = version;
        break;
      } catch (err) {
        if (!(err instanceof ModbusException)) throw err;
      }
    }
    this.firmwareToCheck = null;
    if (actual !== expected) {
      this.logger.info({ remembered: expected, actual }, 'gateway firmware generation changed; relearning its register map');
      this.reader.resetPlant();
      if (this.gatewayKey) this.memory.forget(this.gatewayKey.host, this.gatewayKey.port);
      this.savedVersion = '';
    }
  }

  /** Saves what was learnt about this gateway once the enumeration is done and whenever it changes. */
  private persist(cfg: PollerConfig): void {
    if (this.probeQueue.length || this.firmwareToCheck) return;
    const version = this.reader.version;
    if (version === this.savedVersion) return;
    this.savedVersion = version;
    this.memory.set(cfg.host, cfg.port, this.reader.knowledge());
  }
}
