import net from 'node:net';
import tls from 'node:tls';
import { Duplex } from 'node:stream';
import type { IClientOptions, MqttClient } from 'mqtt';
import { systemClock, type Clock, type Timer } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import { MAX_INCOMING_PACKET_BYTES, packetSizeGuard } from './packet-guard.js';
import type { Goodbye } from './retire.js';

/** Largest message this app publishes (a discovery config is about 1 KiB; the state about 2 KiB). */
export const MAX_PUBLISH_BYTES = 16 * 1024;
/** Bytes that may wait unsent on the socket; past this a publish is dropped rather than queued (a slow broker never grows memory). */
export const MAX_UNSENT_BYTES = 256 * 1024;
/**
 * Reconnect waits: doubled after each failure from the first to the last, and back to the first
 * only once a connection has stayed up for `RECONNECT_STABLE_MS` (a broker that accepts and then
 * drops every connection is retried ever more slowly, not once a second forever).
 */
export const RECONNECT_MIN_MS = 1000;
export const RECONNECT_MAX_MS = 60_000;
export const RECONNECT_STABLE_MS = 60_000;
const CONNECT_TIMEOUT_MS = 10_000;

export type LinkStatus = 'off' | 'connecting' | 'connected' | 'waiting';

export interface BrokerTarget {
  url: string;
  username: string;
  password: string;
  clientId: string;
}

export interface MqttLinkOptions {
  logger: Logger;
  outbound: Outbound;
  /** The broker to use now; null while MQTT is off or not set up. Read at every (re)connect. */
  target: () => BrokerTarget | null;
  /** Retained `online` on connect, `offline` as the broker's last will (a crash) and on stop. */
  availabilityTopic: () => string;
  /** Topics to subscribe on each connect (commands, Home Assistant's status). */
  subscriptions: () => string[];
  /** Called on each (re)connect, after `online`: publish discovery configs and the current state. */
  onConnect(): void;
  /** A message on a subscribed topic (payload bounded by the packet guard; `retain`: the broker's stored copy). */
  onMessage(topic: string, payload: Buffer, meta: { retain: boolean }): void;
  /** Waits between reconnects (tests shorten them). */
  reconnect?: { minMs: number; maxMs: number };
  /** Times the reconnect waits and how long a connection stayed up (tests drive it). */
  clock?: Clock;
}

export interface MqttLink {
  start(): void;
  /**
   * Publishes `offline` (on the availability topic of this connection), disconnects, cancels any
   * reconnect. With a goodbye, first empties its retained topics (old discovery configs and state).
   */
  stop(goodbye?: Goodbye): Promise<void>;
  /** Drops the connection and connects again with the current settings (broker or credentials changed). */
  restart(): void;
  /**
   * Sends a message if connected; never waits and never queues while disconnected. Returns false
   * when it was dropped (not connected, too big, or the socket's backlog is full).
   */
  publish(topic: string, payload: string, opts?: { retain?: boolean }): boolean;
  /** `dropped`: messages not sent; `received`: messages taken from the broker (oversized ones left out). */
  status(): { status: LinkStatus; lastError: string | null; connects: number; dropped: number; received: number };
}

/**
 * mqtt.js and what it pulls in (streams, WebSocket and SOCKS transports: about 350 kB of code) load
 * on the first connection attempt, not with the service: a service whose MQTT is off never parses
 * them. Shared by both services' links.
 */
let mqttLoaded: Promise<typeof MqttClient> | null = null;
const loadMqtt = () =>
  (mqttLoaded ??= import('mqtt').then((m) => {
    // mqtt.js is CommonJS: from the bundle its exports may come only as the default export.
    const Client = m.MqttClient ?? (m as unknown as { default?: { MqttClient?: typeof MqttClient } }).default?.MqttClient;
    if (typeof Client !== 'function') throw new Error('mqtt.js has no MqttClient export');
    return Client;
  }).catch((err: unknown) => {
    mqttLoaded = null; // tried again on the next attempt
    throw err;
  }));

/**
 * One connection to an MQTT broker (mqtt.js), made through the outbound gate as a LAN device: the
 * broker's name is resolved and checked once per attempt and the socket goes to the checked address.
 * mqtt.js's own reconnect is off; this link waits with backoff between attempts. A broker that
 * refuses, vanishes or answers garbage is a logged state (one line per change), never a crash.
 */
export function createMqttLink(opts: MqttLinkOptions): MqttLink {
  const waits = opts.reconnect ?? { minMs: RECONNECT_MIN_MS, maxMs: RECONNECT_MAX_MS };
  const clock = opts.clock ?? systemClock;
  let client: MqttClient | null = null;
  let socket: Duplex | null = null;
  let status: LinkStatus = 'off';
  let lastError: string | null = null;
  let connects = 0;
  let dropped = 0;
  let received = 0;
  let delay = waits.minMs;
  /** When the live connection was accepted (null while not connected). */
  let connectedAt: number | null = null;
  let timer: Timer | null = null;
  let running = false;
  let generation = 0;
  /** The availability topic of the live connection (its last will): `offline` goes there, whatever the settings say now. */
  let availabilityNow = '';

  const setError = (message: string) => {
    if (message !== lastError) opts.logger.warn({ broker: opts.target()?.url, error: message }, 'MQTT broker not reachable; retrying');
    lastError = message;
  };

  const teardown = () => {
    generation++;
    const c = client;
    client = null;
    socket = null;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      c.end(true);
    }
  };

  const schedule = () => {
    if (!running || timer) return;
    status = 'waiting';
    timer = clock.setTimeout(() => {
      timer = null;
      void attempt();
    }, delay);
    timer.unref?.();
    delay = Math.min(delay * 2, waits.maxMs);
  };

  const attempt = async () => {
    if (!running) return;
    let target: BrokerTarget | null;
    try {
      target = opts.target();
    } catch (err) {
      setError((err as Error).message);
      schedule();
      return;
    }
    if (!target) {
      status = 'off';
      return;
    }
    status = 'connecting';
    const gen = ++generation;
    let url: URL;
    let address: string;
    try {
      url = new URL(target.url);
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      address = (await opts.outbound.checkHost({ purpose: 'lan-device' }, host)).address;
    } catch (err) {
      if (gen !== generation) return;
      setError((err as Error).message);
      schedule();
      return;
    }
    let Client: typeof MqttClient;
    try {
      Client = await loadMqtt();
    } catch (err) {
      if (gen !== generation) return;
      setError(`the MQTT client could not load: ${(err as Error).message}`);
      schedule();
      return;
    }
    if (gen !== generation || !running) return;
    const availability = opts.availabilityTopic();
    const secure = url.protocol === 'mqtts:';
    const port = Number(url.port || (secure ? 8883 : 1883));
    const options: IClientOptions = {
      clientId: target.clientId,
      username: target.username || undefined,
      password: target.password || undefined,
      protocolVersion: 4,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      queueQoSZero: false,
      resubscribe: false,
      will: { topic: availability, payload: Buffer.from('offline'), qos: 1, retain: true },
    };
    const build = () => {
      const raw = secure
        ? tls.connect({ host: address, port, servername: net.isIP(url.hostname) ? undefined : url.hostname })
        : net.connect({ host: address, port });
      raw.setNoDelay(true);
      // Bytes from the broker pass the packet guard before the parser; our writes go straight out.
      const guard = packetSizeGuard(undefined, ({ topic, bytes }) => {
        if (gen === generation) opts.logger.warn({ topic, bytes, max: MAX_INCOMING_PACKET_BYTES }, 'MQTT message from the broker too large; dropped (the connection stays up)');
      });
      raw.pipe(guard);
      const duplex = Duplex.from({ readable: guard, writable: raw }) as Duplex;
      raw.on('error', (err) => duplex.destroy(err));
      // The broker went away (a FIN, not an error): end the MQTT stream too, so the link notices now.
      raw.on('close', () => duplex.destroy());
      guard.on('error', (err) => {
        raw.destroy();
        duplex.destroy(err);
      });
      duplex.on('close', () => raw.destroy());
      socket = raw;
      return duplex;
    };
    const c = new Client(build, options);
    client = c;
    c.on('connect', () => {
      if (gen !== generation) return;
      status = 'connected';
      connects++;
      connectedAt = clock.now();
      if (lastError !== null || connects === 1) opts.logger.info({ broker: target.url }, 'MQTT connected');
      lastError = null;
      availabilityNow = availability;
      c.publish(availability, 'online', { qos: 1, retain: true });
      const topics = opts.subscriptions();
      if (topics.length) c.subscribe(topics, { qos: 0 });
      try {
        opts.onConnect();
      } catch (err) {
        opts.logger.error({ err }, 'MQTT publish on connect failed');
      }
    });
    c.on('message', (topic, payload, packet) => {
      received++;
      try {
        opts.onMessage(topic, payload, { retain: packet.retain === true });
      } catch (err) {
        opts.logger.error({ err, topic }, 'MQTT message handler failed');
      }
    });
    // An error or a close ends this attempt (mqtt.js does not always emit both): drop it and wait.
    const fail = (message: string) => {
      if (gen !== generation) return;
      // The wait goes back to the first only after a connection that stayed up a while.
      if (connectedAt !== null && clock.now() - connectedAt >= RECONNECT_STABLE_MS) delay = waits.minMs;
      connectedAt = null;
      setError(message);
      teardown();
      schedule();
    };
    c.on('error', (err) => fail(err.message));
    c.on('close', () => fail(status === 'connected' ? 'the broker closed the connection' : (lastError ?? 'the broker did not accept the connection')));
  };

  return {
    start() {
      if (running) return;
      running = true;
      delay = waits.minMs;
      void attempt();
    },
    async stop(goodbye) {
      running = false;
      if (timer) clock.clear(timer);
      timer = null;
      const c = client;
      if (c && status === 'connected') {
        const availability = availabilityNow || opts.availabilityTopic();
        // Retired topics first: an empty retained message deletes the broker's copy (written in order, before the goodbye).
        for (const t of goodbye?.clear ?? []) c.publish(t, '', { qos: 0, retain: true });
        // A clean goodbye: `offline` (the broker drops the last will on a normal disconnect), or
        // nothing left at all when the service moved to another topic prefix.
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 1000);
          c.publish(availability, goodbye?.clearAvailability ? '' : 'offline', { qos: 0, retain: true }, () => {
            clearTimeout(t);
            resolve();
          });
        });
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 1000);
          c.end(false, {}, () => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      teardown();
      connectedAt = null;
      status = 'off';
    },
    restart() {
      if (!running) return;
      teardown();
      if (timer) clock.clear(timer);
      timer = null;
      connectedAt = null;
      delay = waits.minMs;
      lastError = null;
      void attempt();
    },
    publish(topic, payload, o = {}) {
      const c = client;
      if (!c || status !== 'connected') {
        dropped++;
        return false;
      }
      if (Buffer.byteLength(payload) > MAX_PUBLISH_BYTES) {
        dropped++;
        opts.logger.warn({ topic, bytes: Buffer.byteLength(payload) }, 'MQTT message too large; not sent');
        return false;
      }
      if (socket && socket.writableLength > MAX_UNSENT_BYTES) {
        dropped++;
        return false;
      }
      c.publish(topic, payload, { qos: 0, retain: o.retain === true });
      return true;
    },
    status: () => ({ status, lastError, connects, dropped, received }),
  };
}
