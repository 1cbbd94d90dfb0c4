import net from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { createManualClock, type Clock } from '../../core/clock.js';
import { createOutbound } from '../../core/outbound.js';
import { createMqttLink, MAX_PUBLISH_BYTES, type MqttLink } from './link.js';
import { packetSizeGuard, type DroppedMessage } from './packet-guard.js';
import { mosquittoUnavailable, startMosquitto, watch } from './testing/mosquitto.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Extra {
  subscriptions?: string[];
  onMessage?: (topic: string, payload: Buffer, meta: { retain: boolean }) => void;
  onConnect?: () => void;
  reconnect?: { minMs: number; maxMs: number };
  clock?: Clock;
}

function linkTo(url: string, lines: string[], extra: Extra = {}): MqttLink {
  const link = createMqttLink({
    logger: pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }),
    outbound: createOutbound(),
    target: () => ({ url, username: '', password: '', clientId: 'link-test' }),
    availabilityTopic: () => 'test/availability',
    subscriptions: () => extra.subscriptions ?? [],
    onConnect: extra.onConnect ?? (() => undefined),
    onMessage: extra.onMessage ?? (() => undefined),
    reconnect: extra.reconnect ?? { minMs: 200, maxMs: 400 },
    clock: extra.clock,
  });
  cleanups.push(() => link.stop());
  return link;
}

const until = async (pred: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`${what} not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('packet size guard', () => {
  const feed = (bytes: number[]) =>
    new Promise<Error | null>((resolve) => {
      const g = packetSizeGuard(1000);
      g.on('error', resolve);
      g.on('data', () => undefined);
      g.write(Buffer.from(bytes), (err) => resolve(err ?? null));
    });
  it('passes packets up to the limit, split or joined, and fails one (not a message) that announces more', async () => {
    expect(await feed([0x20, 0x02, 0x00, 0x00, 0x30, 0x03, 0x00, 0x01, 0x61])).toBeNull();
    // 1000 = 0xe8 0x07 (7-bit groups): allowed; 1001 is not. 0x90: a SUBACK.
    expect(await feed([0x90, 0xe8, 0x07])).toBeNull();
    expect((await feed([0x90, 0xe9, 0x07]))?.message).toMatch(/1001 bytes/);
    // A remaining length longer than 4 bytes is malformed.
    expect((await new Promise<Error | null>((resolve) => {
      const g = packetSizeGuard(Number.MAX_SAFE_INTEGER);
      g.on('error', resolve);
      g.on('data', () => undefined);
      g.write(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]), (err) => resolve(err ?? null));
    }))?.message).toMatch(/malformed/);
  });

  it('leaves an oversized message out of the stream, byte by byte, and passes the packets around it', async () => {
    const g = packetSizeGuard(1000, (d) => drops.push(d));
    const drops: DroppedMessage[] = [];
    const out: Buffer[] = [];
    g.on('data', (b: Buffer) => out.push(b));
    const small = [0x30, 0x04, 0x00, 0x01, 0x61, 0x62]; // topic "a", payload "b"
    // A PUBLISH of 1001 bytes on topic "big/topic" (9 bytes), sent one byte at a time.
    const body = Buffer.alloc(1001, 0x78);
    body.writeUInt16BE(9, 0);
    body.write('big/topic', 2);
    const big = Buffer.concat([Buffer.from([0x31, 0xe9, 0x07]), body]);
    g.write(Buffer.from(small));
    for (const b of big) g.write(Buffer.from([b]));
    await new Promise<void>((r) => g.write(Buffer.from(small), () => r()));
    expect(Buffer.concat(out)).toEqual(Buffer.from([...small, ...small]));
    expect(drops).toEqual([{ topic: 'big/topic', bytes: 1001 }]);
  });
});

/** A fake broker on loopback: it accepts the CONNECT and then sends `after` (raw MQTT bytes). */
async function fakeBroker(after: (sock: net.Socket) => void): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const socks = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    connections++;
    socks.add(sock);
    sock.on('error', () => undefined);
    sock.once('data', () => {
      sock.write(Buffer.from([0x20, 0x02, 0x00, 0x00])); // CONNACK accepted
      after(sock);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => {
    server.close(() => r());
    for (const sock of socks) sock.destroy();
  }));
  return { url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`, connections: () => connections };
}

/** A QoS 0 PUBLISH packet (remaining length below 128). */
const publishPacket = (topic: string, payload: string) => {
  const body = Buffer.concat([Buffer.from([0, topic.length]), Buffer.from(topic), Buffer.from(payload)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
};

describe('the broker link against hostile brokers', () => {
  it('drops a 10 MB message as it arrives (one log line) and keeps the connection: the next message arrives', async () => {
    const broker = await fakeBroker((sock) => {
      // A PUBLISH announcing 10,000,000 bytes on topic "t/big", sent in full, then a small one.
      const head = Buffer.from([0x30, 0x80, 0xad, 0xe2, 0x04, 0x00, 0x05, ...Buffer.from('t/big')]);
      sock.write(head);
      const slice = Buffer.alloc(1024 * 1024, 1);
      let left = 10_000_000 - 7;
      while (left > 0) {
        sock.write(slice.subarray(0, Math.min(left, slice.length)));
        left -= slice.length;
      }
      sock.write(publishPacket('t/small', 'hello'));
    });
    const lines: string[] = [];
    const got: string[] = [];
    const link = linkTo(broker.url, lines, { onMessage: (topic, payload) => got.push(`${topic}=${payload.toString()}`) });
    link.start();
    await until(() => got.length > 0, 10_000, 'the small message');
    expect(got).toEqual(['t/small=hello']);
    expect(link.status()).toMatchObject({ status: 'connected', connects: 1 });
    expect(broker.connections()).toBe(1);
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => /too large; dropped/.test(l.msg));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ topic: 't/big', bytes: 10_000_000, max: 65536 });
    expect(lines.some((l) => /not reachable/.test(l))).toBe(false);
  });

  it('drops a broker whose oversized packet is not a message, logs it, and tries again later', async () => {
    // A SUBACK announcing 10 MB, then a first slice of it.
    const broker = await fakeBroker((sock) => sock.write(Buffer.concat([Buffer.from([0x90, 0x80, 0xad, 0xe2, 0x04]), Buffer.alloc(64 * 1024, 1)])));
    const lines: string[] = [];
    const link = linkTo(broker.url, lines);
    link.start();
    await until(() => broker.connections() >= 2, 5000, 'a second attempt');
    expect(link.status().status).not.toBe('connected');
    const warn = lines.map((l) => JSON.parse(l)).find((l) => /not reachable/.test(l.msg));
    expect(warn.error).toMatch(/10000000 bytes \(at most 65536 accepted\)/);
  });

  it('a broker address on the internet is refused by the outbound gate (a LAN device)', async () => {
    const lines: string[] = [];
    const link = linkTo('mqtt://8.8.8.8:1883', lines);
    link.start();
    await until(() => link.status().lastError !== null, 3000, 'a refusal');
    expect(link.status().lastError).toMatch(/8\.8\.8\.8/);
    expect(link.status().connects).toBe(0);
  });
});

const noBroker = mosquittoUnavailable();
if (noBroker) console.warn(`MQTT broker link tests skipped: ${noBroker}`);
describe.skipIf(noBroker !== null)('the broker link against mosquitto', () => {
  it('never sends a message over the size bound, and drops (does not queue) while disconnected', async () => {
    const broker = await startMosquitto();
    cleanups.push(() => broker.close());
    const lines: string[] = [];
    const link = linkTo(broker.url, lines);
    expect(link.publish('test/x', 'before start')).toBe(false);
    link.start();
    await until(() => link.status().status === 'connected', 5000, 'connected');
    const sub = await watch(broker.url, ['test/#']);
    cleanups.push(() => sub.close());
    expect(link.publish('test/big', 'x'.repeat(MAX_PUBLISH_BYTES + 1))).toBe(false);
    expect(link.publish('test/ok', 'x'.repeat(MAX_PUBLISH_BYTES))).toBe(true);
    await sub.waitFor((m) => m.topic === 'test/ok');
    expect(sub.seen.filter((m) => m.topic === 'test/big')).toEqual([]);
    expect(sub.seen.filter((m) => m.topic === 'test/x')).toEqual([]);
  });
});

describe.skipIf(noBroker !== null)('the broker link stays calm (mosquitto)', () => {
  it('an oversized retained message is dropped with one log line; the connection stays up and later messages arrive', async () => {
    const broker = await startMosquitto();
    cleanups.push(() => broker.close());
    const other = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
    cleanups.push(() => other.endAsync(true));
    await other.publishAsync('cmd/big', 'x'.repeat(100 * 1024), { retain: true });
    const lines: string[] = [];
    const got: Array<{ topic: string; retain: boolean }> = [];
    const link = linkTo(broker.url, lines, { subscriptions: ['cmd/#'], onMessage: (topic, _p, { retain }) => got.push({ topic, retain }) });
    link.start();
    await until(() => lines.some((l) => /too large; dropped/.test(l)), 5000, 'the drop logged');
    await other.publishAsync('cmd/small', 'hi');
    await until(() => got.length > 0, 5000, 'the next message');
    expect(got).toEqual([{ topic: 'cmd/small', retain: false }]);
    expect(link.status()).toMatchObject({ status: 'connected', connects: 1 });
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => /too large; dropped/.test(l.msg));
    expect(logged).toEqual([expect.objectContaining({ topic: 'cmd/big', bytes: 2 + 7 + 100 * 1024 })]);
  });

  it('the reconnect wait keeps doubling while every connection is dropped at once, and starts over after one stayed up 60 s', async () => {
    const broker = await startMosquitto();
    cleanups.push(() => broker.close());
    const clock = createManualClock();
    const lines: string[] = [];
    const link = linkTo(broker.url, lines, { clock, reconnect: { minMs: 1000, maxMs: 60_000 } });
    link.start();
    // Another client with the same name takes the session over: the broker drops ours (a name clash, or a broker that drops every client).
    const kick = async () => {
      const twin = await mqtt.connectAsync(broker.url, { clientId: 'link-test', reconnectPeriod: 0 });
      await until(() => link.status().status === 'waiting', 5000, 'the link dropped');
      await twin.endAsync(true);
    };
    /** Advances the clock to just before the wait ends (still waiting), then to its end (a new attempt). */
    const waitIs = async (ms: number) => {
      clock.advance(ms - 1);
      expect(link.status().status).toBe('waiting');
      clock.advance(1);
      expect(link.status().status).toBe('connecting');
      const before = link.status().connects;
      await until(() => link.status().connects === before + 1, 5000, 'connected again');
    };
    await until(() => link.status().connects === 1, 5000, 'connected');
    for (const wait of [1000, 2000, 4000, 8000]) {
      await kick();
      await waitIs(wait);
    }
    // This connection stays up a minute: the next drop is retried after the first wait again.
    clock.advance(60_000);
    await kick();
    await waitIs(1000);
  });
});
