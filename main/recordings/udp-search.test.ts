import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { udpSearch } from './udp-search.js';

/** Holds this thread (and its event loop) for `ms`, as a long synchronous task or a starved process does. */
function stallLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('udpSearch listening window', () => {
  let device: dgram.Socket | null = null;
  afterEach(async () => {
    await new Promise<void>((resolve) => (device ? device.close(() => resolve()) : resolve()));
    device = null;
  });

  /** A device on loopback that answers each search; `beforeReply` runs on this thread as it reads the search. */
  async function startDevice(beforeReply: () => void): Promise<number> {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (_msg, from) => {
      beforeReply();
      socket.send('HELLO', from.port, from.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    device = socket;
    return (socket.address() as AddressInfo).port;
  }

  const search = (port: number, windowMs: number) => {
    const replies: string[] = [];
    const done = udpSearch(
      { bindAddress: '127.0.0.1', address: '127.0.0.1', port, windowMs },
      { ttl: 2, messages: [Buffer.from('SEARCH')], onReply: (msg) => replies.push(msg.toString()) },
    ).then(() => replies);
    return done;
  };

  it('collects a reply that came back within the window', async () => {
    const port = await startDevice(() => undefined);
    expect(await search(port, 250)).toEqual(['HELLO']);
  });

  it('a loop held up longer than the whole window still reads the reply waiting in its socket', async () => {
    // The device reads the search, then this process cannot run for 400 ms before it answers (a loaded
    // machine; in the e2e run the box simulator shares the service's event loop): the window's deadline
    // passed while the reply waits unread. The time the loop could not listen does not count.
    const port = await startDevice(() => stallLoop(400));
    expect(await search(port, 250)).toEqual(['HELLO']);
  });
});
