import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { cloudDelete, CloudError, MAX_AUTH_BYTES, MAX_WS_MESSAGE_BYTES } from './cloud-client.js';

/** A loopback "cloud" whose sign-in and socket are scripted by each test. */
async function hostileCloud(onAuth: (res: http.ServerResponse) => void, onSocket?: (send: (data: string | Buffer) => void) => void) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => onAuth(res));
  });
  const wss = new WebSocketServer({ server, maxPayload: 1024 * 1024 });
  wss.on('connection', (ws) => ws.on('message', () => onSocket?.((d) => ws.send(d))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    account: { apiUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}`, activationCode: 'code', pin: '1234' },
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const okAuth = (res: http.ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'auth=s3ss10n; Path=/' }).end(JSON.stringify({ terminals: [{ id: 'T1', pvr: true }] }));
const deps = { fetch, now: () => 1_700_000_000_000, timings: { pingTimeoutMs: 1000, pingAttempts: 2, ackTimeoutMs: 2000, requestTimeoutMs: 3000, connectTimeoutMs: 3000 } };
const stageOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CloudError);
  return err as CloudError;
};

describe('every byte from the cloud is hostile', () => {
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
  });

  it('an oversized sign-in answer is refused at the auth stage, unread', async () => {
    const c = await hostileCloud((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(MAX_AUTH_BYTES + 10)));
    close = c.close;
    const err = await stageOf(cloudDelete(deps, c.account, '1'));
    expect(err.stage).toBe('auth');
    expect(err.message).toContain('larger than');
  });

  it('a sign-in without a session, or not JSON, fails at auth', async () => {
    const c = await hostileCloud((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ terminals: [] })));
    close = c.close;
    expect((await stageOf(cloudDelete(deps, c.account, '1'))).message).toContain('no session');
  });

  it('garbage, wrong types and a library of junk entries: the id is not translated', async () => {
    const c = await hostileCloud(okAuth, (send) => {
      send('not json');
      send(JSON.stringify([1, 2]));
      send(JSON.stringify({ message: { type: 42 } }));
      send(JSON.stringify({ sender: 'T1', message: { type: 'I_AM_ALIVE', data: { recordings: [null, 7, { id: {}, dlnaId: '1' }, { id: 'c2', dlnaId: '2' }, { id: 'x'.repeat(500), dlnaId: '1' }] } } }));
    });
    close = c.close;
    expect((await stageOf(cloudDelete(deps, c.account, '1'))).stage).toBe('translate');
  });

  it('a message over the size limit closes the channel: handshake fails, nothing hangs', async () => {
    expect(MAX_WS_MESSAGE_BYTES).toBeLessThan(64 * 1024 * 1024);
    const c = await hostileCloud(okAuth, (send) => send(Buffer.alloc(MAX_WS_MESSAGE_BYTES + 1024, 0x20)));
    close = c.close;
    const err = await stageOf(cloudDelete(deps, c.account, '1'));
    expect(err.stage).toBe('handshake');
    expect(err.message).toContain('closed the connection');
  });

  it('an acknowledgement of a different id is a failure', async () => {
    const c = await hostileCloud(okAuth, (send) => {
      send(JSON.stringify({ sender: 'T1', message: { type: 'I_AM_ALIVE', data: { recordings: [{ id: 'c1', dlnaId: '1' }] } } }));
      send(JSON.stringify({ sender: 'T1', message: { type: 'PENDING_DELETE_RECORDINGS_BY_ID_SUCCESS', data: { recordingsIds: ['c9'], restorationTimestamps: [1] } } }));
    });
    close = c.close;
    const err = await stageOf(cloudDelete(deps, c.account, '1'));
    expect(err.stage).toBe('ack');
  });
});
