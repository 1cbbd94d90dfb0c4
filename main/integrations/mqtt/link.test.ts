import net from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutbound } from '../../core/outbound.js';
import { createMqttLink, MAX_PUBLISH_BYTES, type MqttLink } from './link.js';
import { MAX_INCOMING_PACKET_BYTES, packetSizeGuard } from './packet-guard.js';
import { mosquittoUnavailable, startMosquitto, watch } from './testing/mosquitto.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function linkTo(url: string, lines: string[], extra: { subscriptions?: string[] } = {}): MqttLink {
  const link = createMqttLink({
    logger: pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }),
    outbound: createOutbound(),
    target: () => ({ url, username: '', password: '', clientId: 'link-test' }),
    availabilityTopic: () => 'test/availability',
    subscriptions: () => extra.subscriptions ?? [],
    onConnect: () => undefined,
    onMessage: () => undefined,
    reconnect: { minMs: 200, maxMs: 400 },
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
  it('passes packets up to the limit, split or joined, and fails one that announces more', async () => {
    expect(await feed([0x20, 0x02, 0x00, 0x00, 0x30, 0x03, 0x00, 0x01, 0x61])).toBeNull();
    // 1000 = 0xe8 0x07 (7-bit groups): allowed; 1001 is not.
    expect(await feed([0x30, 0xe8, 0x07])).toBeNull();
    expect((await feed([0x30, 0xe9, 0x07]))?.message).toMatch(/1001 bytes/);
    // A remaining length longer than 4 bytes is malformed.
    expect((await new Promise<Error | null>((resolve) => {
      const g = packetSizeGuard(Number.MAX_SAFE_INTEGER);
      g.on('error', resolve);
      g.on('data', () => undefined);
      g.write(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]), (err) => resolve(err ?? null));
    }))?.message).toMatch(/malformed/);
  });
});

describe('the broker link against hostile brokers', () => {
  it('drops a broker that announces an oversized packet, logs it, and tries again later', async () => {
    let connections = 0;
    const server = net.createServer((sock) => {
      connections++;
      sock.on('error', () => undefined);
      sock.once('data', () => {
        sock.write(Buffer.from([0x20, 0x02, 0x00, 0x00])); // CONNACK accepted
        // A PUBLISH announcing 10 MB, then a first slice of it.
        sock.write(Buffer.concat([Buffer.from([0x30, 0x80, 0xad, 0xe2, 0x04]), Buffer.alloc(64 * 1024, 1)]));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const lines: string[] = [];
    const link = linkTo(`mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`, lines);
    link.start();
    await until(() => connections >= 2, 5000, 'a second attempt');
    expect(link.status().status).not.toBe('connected');
    const warn = lines.map((l) => JSON.parse(l)).find((l) => /not reachable/.test(l.msg));
    expect(warn.error).toMatch(new RegExp(`10000000 bytes \\(at most ${MAX_INCOMING_PACKET_BYTES} accepted\\)`));
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
