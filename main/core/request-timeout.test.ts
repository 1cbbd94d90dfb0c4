import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnergyHarness } from '../energy/testing/harness.js';
import { startHarness, type Harness as RecordingHarness } from '../recordings/testing/harness.js';
import { memoryLogger } from './testing/memory-logger.js';

/**
 * Every request finishes or is closed (issue 37, item 6): on both ports, a request whose body (or
 * headers) is not in within the request timeout gets 408 and its connection is closed, with one
 * log line. The services are given a short timeout (the default is 30 s) so the test does not wait.
 */
const TIMEOUT_MS = 400;

/** Sends `head` (and no more) from a guest address; resolves with all the server wrote once it closes the socket. */
function sendAndWaitForClose(url: string, head: string): Promise<{ answer: string; closedAfterMs: number }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: u.hostname, port: Number(u.port), localAddress: '127.0.0.2' }, () => socket.write(head));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString('utf8'), closedAfterMs: Date.now() - started }));
    // A server that holds the request forever fails the test instead of hanging it.
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server still holds the half-sent request'));
    }, 10_000).unref();
  });
}

const halfSentBody = (host: string) => `PUT /api/settings HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"general":`;
const halfSentHeaders = (host: string) => `GET /api/settings HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `;

function expect408(answer: string): void {
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(answer).toMatch(/connection: close/i);
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('request_timeout');
  expect(body.error.message).toMatch(/did not arrive in full/);
}

const timeoutLines = (lines: string[]) => lines.filter((l) => l.includes('answered 408'));

describe('the energy bridge closes a request that never finishes', () => {
  const log = memoryLogger();
  let h: Awaited<ReturnType<typeof startEnergyHarness>>;
  beforeAll(async () => {
    h = await startEnergyHarness({ deps: { logger: log.logger, requestTimeoutMs: TIMEOUT_MS } });
  });
  afterAll(async () => h.stop());

  it('a half-sent body gets 408 and the socket is closed; one log line names the client', async () => {
    const host = new URL(h.service.url).host;
    const { answer, closedAfterMs } = await sendAndWaitForClose(h.service.url, halfSentBody(host));
    expect408(answer);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    const lines = timeoutLines(log.lines);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ client: '127.0.0.2', level: 40 });
    // The settings were not touched and the bridge still answers.
    expect((await fetch(`${h.service.url}/api/settings`)).status).toBe(200);
  });

  it('headers that never finish get 408 too', async () => {
    const host = new URL(h.service.url).host;
    expect408((await sendAndWaitForClose(h.service.url, halfSentHeaders(host))).answer);
  });
});

describe('the recording sync closes a request that never finishes', () => {
  const log = memoryLogger();
  let h: RecordingHarness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [] }, deps: { logger: log.logger, requestTimeoutMs: TIMEOUT_MS } });
  });
  afterAll(async () => h.cleanup());

  it('a half-sent body gets 408 and the socket is closed; one log line', async () => {
    const host = new URL(h.service.url).host;
    const { answer } = await sendAndWaitForClose(h.service.url, halfSentBody(host).replace('PUT', 'PATCH'));
    expect408(answer);
    expect(timeoutLines(log.lines)).toHaveLength(1);
    expect((await h.api.get('/api/settings')).status).toBe(200);
  });
});
